"""Tiny inline-SVG charts for the report: grouped bars and step curves, no plotting library.

Each function returns one `<svg id=...>` string with axes, gridlines, a legend and a `<title>`
tooltip on every mark, sized in user units so the browser scales it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

# twelve distinct colours: every framework of the registry (nine) gets its own
PALETTE = ["#3366aa", "#ee7733", "#229977", "#cc3366", "#8866bb", "#aa8800", "#55aacc", "#777777",
           "#66aa22", "#992222", "#dd77bb", "#224433"]
LEGEND_ROW = 18  # height of one legend row
FONT = "font-family='system-ui, sans-serif' font-size='12'"

Series = tuple[str, Sequence[float | None], str]  # name, one value per category, colour


def nice_max(value: float) -> float:
    """A round axis maximum at or above `value` (1, 2, 2.5 or 5 times a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _legend(series_names: Sequence[tuple[str, str]], x: float, y: float, right: float) -> tuple[str, float]:
    """Every series' swatch and name, wrapped into rows that end before `right`; (svg, height added)."""
    parts, cursor, row = [], x, 0
    for name, colour in series_names:
        width = 16 + 7.2 * len(name) + 18
        if cursor > x and cursor + width - 18 > right:
            cursor, row = x, row + 1
        top = y + row * LEGEND_ROW
        parts.append(f"<rect x='{cursor:.1f}' y='{top - 10:.1f}' width='12' height='12' fill='{colour}'/>"
                     f"<text x='{cursor + 16:.1f}' y='{top:.1f}' {FONT}>{escape(name)}</text>")
        cursor += width
    return f"<g class='legend'>{''.join(parts)}</g>", row * LEGEND_ROW


def _frame(chart_id: str, width: int, height: int, title: str, body: str) -> str:
    return (f"<svg id='{escape(chart_id)}' class='chart' xmlns='http://www.w3.org/2000/svg' "
            f"viewBox='0 0 {width} {height}' width='{width}' height='{height}' role='img' "
            f"aria-label='{escape(title)}'><title>{escape(title)}</title>"
            f"<rect width='{width}' height='{height}' fill='white'/>{body}</svg>")


def bar_chart(chart_id: str, title: str, categories: Sequence[str], series: Sequence[Series],
              y_label: str = "", fmt: Callable[[float], str] = lambda v: f"{v:g}",
              y_max: float | None = None, notes: Sequence[str] | None = None,
              width: int = 900, height: int = 360) -> str:
    """Grouped vertical bars; `notes` puts a second line under each category label."""
    left, right, top, bottom = 64, 16, 40, 64
    legend, extra = _legend([(n, c) for n, _, c in series], left, 22, width - right)
    top, height = top + extra, height + extra
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for _, vals, _ in series for v in vals if v is not None]
    top_value = y_max if y_max is not None else nice_max(max(values, default=0) * 1.1)
    scale = plot_h / top_value if top_value else 0
    parts = [legend]
    for i in range(6):  # gridlines and y ticks
        v = top_value * i / 5
        y = top + plot_h - v * scale
        parts.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y:.1f}' y2='{y:.1f}' stroke='#e4e4e4'/>"
                     f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT}>{escape(fmt(v))}</text>")
    if y_label:
        parts.append(f"<text transform='translate(14 {top + plot_h / 2:.0f}) rotate(-90)' text-anchor='middle' "
                     f"{FONT}>{escape(y_label)}</text>")
    group_w = plot_w / max(len(categories), 1)
    bar_w = min(48.0, group_w * 0.8 / max(len(series), 1))
    for ci, category in enumerate(categories):
        gx = left + ci * group_w + (group_w - bar_w * len(series)) / 2
        for si, (name, vals, colour) in enumerate(series):
            v = vals[ci]
            if v is None:
                continue
            h = v * scale
            x, y = gx + si * bar_w, top + plot_h - h
            parts.append(f"<rect class='bar' x='{x:.1f}' y='{y:.1f}' width='{bar_w - 2:.1f}' height='{h:.1f}' "
                         f"fill='{colour}'><title>{escape(f'{category} / {name}: {fmt(v)}')}</title></rect>"
                         f"<text x='{x + (bar_w - 2) / 2:.1f}' y='{y - 3:.1f}' text-anchor='middle' "
                         f"font-family='system-ui, sans-serif' font-size='10'>{escape(fmt(v))}</text>")
        cx = left + ci * group_w + group_w / 2
        parts.append(f"<text x='{cx:.1f}' y='{top + plot_h + 18}' text-anchor='middle' {FONT}>{escape(category)}</text>")
        if notes and notes[ci]:
            parts.append(f"<text x='{cx:.1f}' y='{top + plot_h + 34}' text-anchor='middle' "
                         f"font-family='system-ui, sans-serif' font-size='10' fill='#666'>{escape(notes[ci])}</text>")
    parts.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#333'/>")
    return _frame(chart_id, width, height, title, "".join(parts))


def step_chart(chart_id: str, title: str, curves: Sequence[tuple[str, Sequence[tuple[float, float]], str]],
               x_max: float, x_label: str, y_label: str, vline: tuple[float, str] | None = None,
               y_max: float | None = None, width: int = 900, height: int = 380,
               x_fmt: Callable[[float], str] = lambda x: f"{x:g}",
               y_fmt: Callable[[float], str] = lambda y: f"{y * 100:.0f}%") -> str:
    """Right-continuous step curves (Kaplan-Meier style); y defaults to a share shown in percent."""
    left, right, top, bottom = 64, 16, 40, 48
    legend, extra = _legend([(n, c) for n, _, c in curves], left, 22, width - right)
    top, height = top + extra, height + extra
    plot_w, plot_h = width - left - right, height - top - bottom
    top_y = y_max if y_max is not None else nice_max(max((y for _, pts, _ in curves for _, y in pts), default=0) * 1.1)
    x_max = x_max or 1
    sx = lambda x: left + min(x, x_max) / x_max * plot_w  # noqa: E731
    sy = lambda y: top + plot_h - y / top_y * plot_h  # noqa: E731
    parts = [legend]
    for i in range(6):
        v = top_y * i / 5
        parts.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{sy(v):.1f}' y2='{sy(v):.1f}' stroke='#e4e4e4'/>"
                     f"<text x='{left - 6}' y='{sy(v) + 4:.1f}' text-anchor='end' {FONT}>{escape(y_fmt(v))}</text>")
    x_step = nice_max(x_max / 8)
    tick = 0.0
    while tick <= x_max + 1e-9:
        parts.append(f"<line x1='{sx(tick):.1f}' x2='{sx(tick):.1f}' y1='{top + plot_h}' y2='{top + plot_h + 4}' stroke='#333'/>"
                     f"<text x='{sx(tick):.1f}' y='{top + plot_h + 18}' text-anchor='middle' {FONT}>{escape(x_fmt(tick))}</text>")
        tick += x_step
    parts.append(f"<text x='{left + plot_w / 2:.0f}' y='{height - 6}' text-anchor='middle' {FONT}>{escape(x_label)}</text>"
                 f"<text transform='translate(14 {top + plot_h / 2:.0f}) rotate(-90)' text-anchor='middle' "
                 f"{FONT}>{escape(y_label)}</text>")
    if vline:
        x, label = vline
        parts.append(f"<line x1='{sx(x):.1f}' x2='{sx(x):.1f}' y1='{top}' y2='{top + plot_h}' stroke='#999' "
                     f"stroke-dasharray='4 3'/><text x='{sx(x) + 4:.1f}' y='{top + 12}' {FONT} fill='#666'>"
                     f"{escape(label)}</text>")
    for name, points, colour in curves:
        if not points:
            continue
        d = f"M{sx(points[0][0]):.1f},{sy(points[0][1]):.1f}"
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            d += f" H{sx(x1):.1f} V{sy(y1):.1f}"
        parts.append(f"<path class='curve' d='{d}' fill='none' stroke='{colour}' stroke-width='2'>"
                     f"<title>{escape(name)}</title></path>")
    parts.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#333'/>"
                 f"<line x1='{left}' x2='{left}' y1='{top}' y2='{top + plot_h}' stroke='#333'/>")
    return _frame(chart_id, width, height, title, "".join(parts))
