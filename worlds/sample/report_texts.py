"""Sample technical-report text, written for the sample world, plus a loopback arXiv web fake.

Each report's text names exactly the methods in the world's `Report.methods`, in varied surface
forms (full name with acronym, "X-style" tricks, config keys), around neutral filler. Two
collisions are planted on purpose: a `gpg`-signed release (not the GPG method) and an internal
baseline called GRPPO (which must not count as PPO).

`serve_sample_arxiv_web()` serves the texts the way arxiv.org does: `/html/<id>` (LaTeXML HTML)
and `/abs/<id>` (abstract page); a few ids have no HTML rendering, to exercise the fallback. Papers
that are not reports have no page (404): their front matter rows are `no_html`, so the sample's
numbers come from the abstracts alone.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler

from worlds.loopback import serve_on_loopback
from worlds.sample.world import REPORTS, Report

# How each method is named in the sample texts (several forms, chosen by position).
_FORMS: dict[str, tuple[str, ...]] = {
    "GRPO": ("Group Relative Policy Optimization (GRPO)", "a GRPO objective without a critic",
             "group-relative policy optimization"),
    "PPO": ("Proximal Policy Optimization (PPO) with a learned value model", "the PPO clipped surrogate",
            "a PPO-style trust region"),
    "VAPO": ("VAPO, our value-based augmented PPO variant", "the VAPO recipe"),
    "DAPO": ("a DAPO-style clip-higher", "dynamic sampling as in DAPO", "the DAPO token-level loss"),
    "RLOO": ("an RLOO baseline (REINFORCE leave-one-out)", "RLOO advantages"),
    "CISPO": ("CISPO, which clips importance-sampling weights instead of token updates",
              "the CISPO objective"),
    "Dr. GRPO": ("the length-unbiased Dr. GRPO loss", "Dr. GRPO normalisation"),
    "GSPO": ("Group Sequence Policy Optimization (GSPO)", "sequence-level ratios as in GSPO",
             "`loss_type=gspo`"),
    "REINFORCE++": ("a REINFORCE++ baseline for the agentic stage", "REINFORCE++ normalised advantages"),
}

_FILLER = (
    "We describe the architecture, the pre-training data mixture and the long-context extension.",
    "Evaluation covers mathematics, code, agentic tool use and general chat benchmarks.",
    "Rollouts are generated with an inference engine that is kept in sync with the trainer weights.",
    "We filter prompts whose pass rate is either zero or one before each reinforcement learning epoch.",
)

# planted collisions: (report arxiv_id, sentence)
COLLISIONS = {
    "2501.12948": "Release artefacts and checksums are signed with gpg before upload.",
    "2505.09388": "An internal baseline we call GRPPO is reported in the appendix for reference only.",
}


def report_sentences(report: Report) -> list[str]:
    """Original report-like prose naming `report.methods`, several times in varied forms."""
    parts = [f"{report.model} Technical Report.", _FILLER[0]]
    for i, method in enumerate(report.methods):
        forms = _FORMS.get(method, (method,))
        first, again = forms[i % len(forms)], forms[(i + 1) % len(forms)]
        parts.append(f"In the reinforcement learning stage we train with {first}.")
        parts.append(_FILLER[(i + 1) % len(_FILLER)])
        parts.append(f"Ablations in Section {i + 4} compare against runs without {again}.")
    if report.arxiv_id in COLLISIONS:
        parts.append(COLLISIONS[report.arxiv_id])
    parts.append(_FILLER[-1])
    return parts


def report_text(report: Report) -> str:
    return " ".join(report_sentences(report))


def sample_texts() -> dict[str, str]:
    return {r.arxiv_id: report_text(r) for r in REPORTS}


# ids served only as an abstract page (no HTML rendering), as happens on arXiv for some papers
ABS_ONLY = frozenset({"2505.07291"})


def _html_page(report: Report) -> str:
    paras = "".join(f"<p class=\"ltx_p\">{html.escape(s)}</p>\n" for s in report_sentences(report))
    return (f"<!DOCTYPE html><html><head><title>{html.escape(report.model)}</title>"
            "<style>.ltx_p{margin:0}</style><script>var x = 'PPO GRPO';</script></head>"
            f"<body><article class=\"ltx_document\"><h1 class=\"ltx_title\">{html.escape(report.model)}"
            f"</h1>\n{paras}</article></body></html>")


def _abs_page(report: Report, text: str) -> str:
    return ("<!DOCTYPE html><html><head><title>arXiv abstract</title></head><body>"
            f"<h1 class=\"title mathjax\">{html.escape(report.model)}</h1>"
            "<blockquote class=\"abstract mathjax\"><span class=\"descriptor\">Abstract:</span>"
            f"{html.escape(text)}</blockquote><div class=\"extra-services\">Download PDF</div>"
            "</body></html>")


@contextmanager
def serve_sample_arxiv_web(fail_first: int = 0) -> Iterator[str]:
    """A loopback stand-in for arxiv.org's /html and /abs pages; yields its base URL.
    `fail_first` answers that many requests with 503 first (retry tests)."""
    reports = {r.arxiv_id: r for r in REPORTS}
    texts = sample_texts()
    budget = {"fail": fail_first}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:  # noqa: N802
            with lock:
                failing = budget["fail"] > 0
                budget["fail"] -= 1 if failing else 0
            kind, _, aid = self.path.strip("/").partition("/")
            aid = aid.split("v")[0] if "v" in aid else aid
            report = reports.get(aid)
            if failing:
                body, status = b"busy", 503
            elif report and kind == "html" and aid not in ABS_ONLY:
                body, status = _html_page(report).encode(), 200
            elif report and kind == "abs":
                body, status = _abs_page(report, texts[aid]).encode(), 200
            else:
                body, status = b"<html><body>No HTML for this paper</body></html>", 404
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with serve_on_loopback(Handler, "fake-arxiv-web") as base_url:
        yield base_url
