"""Optional model-based paper screener: any OpenAI-compatible Chat Completions endpoint.

Off unless `RLTRACK_SCREENER_BASE_URL` (e.g. https://api.openai.com/v1, or a local vLLM/Ollama
server's /v1) and `RLTRACK_SCREENER_MODEL` are set; `RLTRACK_SCREENER_API_KEY` is sent as a Bearer
token when set. The key is read from the environment only: never logged, stored or put in a row
(error messages are redacted before they are logged or recorded).

For each paper of the candidate pool (or one the rules call RL-related) the model is asked, once,
for the rule screener's fields as one JSON object (`validate` says exactly what is accepted). A
valid answer decides them: the row says `screener = 'model'` and every signal is the model's
stated reason or evidence. Anything else (bad JSON, a missing or out-of-range field, an endpoint
that refuses) keeps the rule screener's row, `screener = 'rules'`, with `screener_note` saying
why; nothing stops the load. 429/5xx are retried as `Retry-After` (or `retry-after-ms`) asks;
an exhausted quota, a refused key or an endpoint that keeps failing switches the model off for
the rest of the run.

Answers are cached in `raw_arxiv.model_screenings` (merge on arxiv_id, content_hash,
screener_version, model). The arXiv source reads the cache through the running dlt pipeline's own
connection (the load holds the one DuckDB writer) and, when a full rebuild (`drop_sources`) is
dropping the raw tables, loads it again with the run's rows, with the model on or off: a re-run, a
new rules version or a rebuild asks the model nothing it was asked before. A new paper version (other text),
another model or a new MODEL_SCREENER_VERSION asks again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

import requests
from dlt.common.configuration.container import Container
from dlt.common.pipeline import PipelineContext
from dlt.destinations.exceptions import DatabaseUndefinedRelation

from ingestion.http import PoliteClient, SourceUnavailable
from ingestion.screening.rules import KINDS, PaperText, defined_methods

log = logging.getLogger(__name__)

MODEL_SCREENER_VERSION = "m2"  # the prompt (m2: the labels' definitions) and the validation; a new one asks every paper again
BASE_URL_ENV = "RLTRACK_SCREENER_BASE_URL"
MODEL_ENV = "RLTRACK_SCREENER_MODEL"
API_KEY_ENV = "RLTRACK_SCREENER_API_KEY"
JSON_MODE_ENV = "RLTRACK_SCREENER_JSON_MODE"  # "0": do not send response_format (servers without JSON mode)
MIN_INTERVAL_ENV = "RLTRACK_SCREENER_MIN_INTERVAL_S"

CACHE_TABLE = "model_screenings"
CACHE_KEY = ("arxiv_id", "content_hash", "screener_version", "model")
CACHE_COLUMNS = {
    "arxiv_id": {"data_type": "text", "nullable": False},
    "content_hash": {"data_type": "text", "nullable": False},  # of the text the model was shown
    "screener_version": {"data_type": "text", "nullable": False},
    "model": {"data_type": "text", "nullable": False},
    "answer": {"data_type": "text"},  # the model's message content, as given
    "valid": {"data_type": "bool"},
    "problem": {"data_type": "text"},  # why the answer was not used (null when valid)
    "prompt_tokens": {"data_type": "bigint"},
    "completion_tokens": {"data_type": "bigint"},
    "answered_at": {"data_type": "timestamp"},
}
# columns the screener adds to raw_arxiv.paper_features (the rules fill `screener` = 'rules')
FEATURE_COLUMNS = {
    "screener": {"data_type": "text"},  # rules | model: which screener decided the row
    "screener_model": {"data_type": "text"},  # the model that decided it (screener = 'model')
    "screener_note": {"data_type": "text"},  # why the rules decided although a model is configured
}

MAX_ABSTRACT_CHARS = 6000
MAX_REASON_CHARS = 300
MAX_POLICY_B = 10000.0  # 10T parameters: anything larger is a misreading, not a model
EVIDENCE_KEYS = ("size_evidence", "loss_evidence", "code_evidence", "report_evidence")


class BadAnswer(ValueError):
    """The model answered, but not with a usable screening (kept in the cache with the reason)."""


class BadResponse(RuntimeError):
    """The endpoint's reply to one paper was not a chat completion (not cached; asked again next run)."""


class ModelUnavailable(RuntimeError):
    """The endpoint refuses every call (key, quota, model name): the model is off for this run."""


@dataclass(frozen=True)
class Settings:
    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    json_mode: bool = True
    min_interval_s: float = 0.0

    @classmethod
    def from_env(cls) -> Settings | None:
        """The environment's settings, or None (the model screener is off) without a URL and a model."""
        env = os.environ.get
        base_url, model = (env(BASE_URL_ENV) or "").strip(), (env(MODEL_ENV) or "").strip()
        if not (base_url and model):
            return None
        return cls(base_url.rstrip("/"), model, (env(API_KEY_ENV) or "").strip() or None,
                   json_mode=env(JSON_MODE_ENV, "1").strip() not in ("0", "false", "no"),
                   min_interval_s=float(env(MIN_INTERVAL_ENV) or 0.0))


def redact(text: str, secret: str | None) -> str:
    """Text without the key, or anything shaped like one (servers echo a masked key on a 401)."""
    if secret:
        text = text.replace(secret, "[redacted]")
    return re.sub(r"\b(?:sk|pk|key)-[\w*.\-]{4,}|Bearer\s+\S+", "[redacted]", text)


# --- the question -------------------------------------------------------------------------------
SYSTEM_PROMPT = f"""You screen arXiv papers for a study of how reinforcement-learning (RL) methods for
language models reach open-source RL post-training frameworks. Read the paper's title, abstract,
comment and links and answer with one JSON object, nothing else, with exactly these keys:
- "is_rl_related": true if the paper is about RL training of language models (RLHF, RL from
  verifiable rewards, preference optimisation, policy-gradient post-training, reward models for
  them); false for RL without language models and for papers that only mention RL.
- "paper_kind": one of {", ".join(KINDS)}.
  general_method: proposes a training method for RL or preference post-training of language
  models (an algorithm, objective, loss, advantage or reward estimator, or recipe) meant to apply
  across tasks. application: an RL recipe for one domain, task family or product (medicine,
  finance, translation, search or GUI agents, theorem proving...), even when it names its method.
  system: training infrastructure (frameworks, rollout engines, asynchronous or distributed
  trainers, throughput and memory work). benchmark / dataset: the contribution is an evaluation
  suite, environment suite or data. survey: a review. analysis: studies or explains existing
  methods without proposing one. not_rl: exactly when is_rl_related is false.
- "model_report": true if the paper is a model's technical report.
- "changes_loss": true if the proposed method (general_method only) changes a coefficient, clip
  range, mask, weight or normalisation inside an existing policy loss, or replaces that loss;
  false for changes to rewards, data, sampling or schedules alone, and for other kinds.
- "policy_size_b": the largest policy the authors train, in billions of parameters (total for
  mixture-of-experts, e.g. 235 for 235B-A22B), or null when not stated. Ignore reward models,
  judges, teachers and models only compared against.
- "releases_code": true if the paper links its own code or says it is (or will be) released;
  false for links to frameworks, models or data sets it only uses.
- "reason": one short sentence: why this kind.
- "size_evidence", "loss_evidence", "code_evidence", "report_evidence": the few words of the paper
  that support a true or non-null value of that field, else null."""


def content_hash(paper: dict) -> str:
    """Hash of what the model is shown: a new version with other text is asked again."""
    links = paper.get("code_urls") or []
    links = json.loads(links) if isinstance(links, str) else links
    shown = [paper.get("title") or "", paper.get("abstract") or "", paper.get("comment") or "", sorted(links)]
    return hashlib.sha256(json.dumps(shown, ensure_ascii=False).encode()).hexdigest()[:32]


def messages_for(paper: dict) -> list[dict]:
    links = paper.get("code_urls") or []
    links = json.loads(links) if isinstance(links, str) else links
    shown = {"title": paper.get("title") or "", "abstract": (paper.get("abstract") or "")[:MAX_ABSTRACT_CHARS],
             "comment": paper.get("comment") or "", "links": list(links)}
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": json.dumps(shown, ensure_ascii=False)}]


# --- the answer ---------------------------------------------------------------------------------
_REQUIRED = {"is_rl_related": bool, "paper_kind": str, "model_report": bool, "changes_loss": bool,
             "releases_code": bool, "reason": str}
_FENCED = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.S)


def validate(content: str | None) -> dict:
    """The screening in a model's answer, or BadAnswer saying what is wrong with it.

    Accepted: one JSON object (bare, or alone in a ```json fence) with every key of the prompt;
    booleans as JSON booleans; paper_kind one of KINDS and `not_rl` exactly when is_rl_related is
    false; policy_size_b null or a number in (0, 10000]; a non-empty reason (cut to 300 characters);
    evidence keys absent, null or text. Unknown keys are ignored."""
    if not isinstance(content, str) or not content.strip():
        raise BadAnswer("empty answer")
    text = content.strip()
    if m := _FENCED.fullmatch(text):
        text = m.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadAnswer(f"not JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, dict):
        raise BadAnswer(f"not a JSON object but a {type(data).__name__}")
    missing = [k for k in (*_REQUIRED, "policy_size_b") if k not in data]
    if missing:
        raise BadAnswer(f"missing field(s): {', '.join(missing)}")
    for key, kind in _REQUIRED.items():
        if not isinstance(data[key], kind):
            raise BadAnswer(f"{key} is {json.dumps(data[key])[:40]}, not a {'boolean' if kind is bool else 'string'}")
    if data["paper_kind"] not in KINDS:
        raise BadAnswer(f"paper_kind {data['paper_kind'][:40]!r} is not one of {', '.join(KINDS)}")
    if (data["paper_kind"] == "not_rl") == data["is_rl_related"]:
        raise BadAnswer(f"paper_kind {data['paper_kind']} contradicts is_rl_related {data['is_rl_related']}")
    size = data["policy_size_b"]
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, (int, float)) or not math.isfinite(size):
            raise BadAnswer(f"policy_size_b is {json.dumps(size)[:40]}, not a number or null")
        if not 0 < size <= MAX_POLICY_B:
            raise BadAnswer(f"policy_size_b {size} is outside (0, {MAX_POLICY_B:g}]")
    reason = " ".join(data["reason"].split())
    if not reason:
        raise BadAnswer("empty reason")
    evidence = {}
    for key in EVIDENCE_KEYS:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise BadAnswer(f"{key} is {json.dumps(value)[:40]}, not text or null")
        evidence[key] = " ".join(value.split())[:MAX_REASON_CHARS] if value and value.strip() else None
    return {**{k: data[k] for k in _REQUIRED}, "policy_size_b": None if size is None else float(size),
            "reason": reason[:MAX_REASON_CHARS], **evidence}


def decided_row(paper: dict, rules: dict, answer: dict, model: str) -> dict:
    """The rule screener's row with the model's fields and signals (scoped as the rules scope them:
    a size only for RL papers other than surveys, a loss change only for general methods)."""
    kind, rl = answer["paper_kind"], answer["is_rl_related"]

    def signal(value: object, evidence_key: str) -> str | None:
        return f"model: {answer[evidence_key] or answer['reason']}" if value else None

    size = answer["policy_size_b"] if rl and kind != "survey" else None
    loss = answer["changes_loss"] and kind == "general_method"
    return {
        **rules,
        "is_rl_related": rl,
        "paper_kind": kind,
        "kind_signal": f"model: {answer['reason']}",
        "policy_size_b": size,
        "size_signal": signal(size is not None, "size_evidence"),
        "changes_loss": loss,
        "loss_signal": signal(loss, "loss_evidence"),
        "releases_code": answer["releases_code"],
        "code_signal": signal(answer["releases_code"], "code_evidence"),
        "model_report": answer["model_report"],
        "model_report_signal": signal(answer["model_report"], "report_evidence"),
        "defined_methods": json.dumps(defined_methods(PaperText.from_row(paper), kind)),
        "screener": "model",
        "screener_model": model,
        "screener_note": None,
    }


# --- the endpoint -------------------------------------------------------------------------------
def _error(resp: requests.Response) -> dict:
    """The OpenAI-style error object of a reply ({"error": {"message", "type", "param", "code"}}), or {}."""
    try:
        err = resp.json().get("error")
    except (ValueError, AttributeError):
        return {}
    return err if isinstance(err, dict) else {"message": str(err)}


class ChatClient:
    """POST {base_url}/chat/completions politely: spacing, retries on 429/5xx as the server asks."""

    def __init__(self, settings: Settings, **client_kwargs: object) -> None:
        self.settings = settings
        self.url = f"{settings.base_url}/chat/completions"
        kwargs = {"min_interval_s": settings.min_interval_s, "max_retries": 4, "backoff_s": 2.0,
                  "max_backoff_s": 60.0, "timeout_s": 120.0, **client_kwargs}
        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        self.http = PoliteClient(headers=headers, should_retry=self._retry_wait, **kwargs)  # type: ignore[arg-type]

    def _retry_wait(self, resp: requests.Response) -> float | None:
        if resp.status_code == 429 and _error(resp).get("code") == "insufficient_quota":
            raise ModelUnavailable(self._describe(resp))  # no wait helps a used-up quota
        if resp.status_code in (429, 500, 502, 503, 504):
            ms = resp.headers.get("retry-after-ms", "")
            if re.fullmatch(r"\d+(?:\.\d+)?", ms.strip()):
                return float(ms) / 1000
        return None  # PoliteClient: Retry-After in seconds, else its backoff

    def _describe(self, resp: requests.Response) -> str:
        err = _error(resp)
        what = " ".join(str(err[k]) for k in ("type", "code") if err.get(k))
        message = str(err.get("message") or resp.text[:200]).strip()
        return redact(f"HTTP {resp.status_code} {what}: {message[:200]}".replace(" :", ":"), self.settings.api_key)

    def complete(self, messages: list[dict]) -> tuple[str | None, dict]:
        """(the answer's content, its usage). Raises ModelUnavailable, BadResponse, SourceUnavailable."""
        body: dict = {"model": self.settings.model, "messages": messages, "temperature": 0}
        if self.settings.json_mode:
            body["response_format"] = {"type": "json_object"}
        resp = self.http.post(self.url, json=body)
        if resp.status_code in (401, 403, 404):  # a refused key, a forbidden or unknown model or path
            raise ModelUnavailable(self._describe(resp))
        if resp.status_code != 200:
            raise BadResponse(self._describe(resp))
        try:
            data = resp.json()
            choice = data["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise BadResponse(f"HTTP 200 without choices[0].message: {resp.text[:120]!r}") from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        content = message.get("content") if isinstance(message, dict) else None
        if choice.get("finish_reason") == "length":
            raise BadAnswer("answer cut off at the token limit (finish_reason=length)")
        if content is None and isinstance(message, dict) and message.get("refusal"):
            raise BadAnswer(f"refused: {str(message['refusal'])[:120]}")
        return content, usage


# --- the screener -------------------------------------------------------------------------------
def read_cached_answers() -> list[dict]:
    """Every cached answer (all versions and models), through the running dlt pipeline's connection,
    so the step that holds the warehouse's one writer reads it; [] before the first answer."""
    context = Container()[PipelineContext]
    if not context.is_active():  # a source iterated without a pipeline: nothing cached to read
        return []
    try:
        with context.pipeline().sql_client() as client:
            table = client.make_qualified_table_name(CACHE_TABLE)
            with client.execute_query(f"select {', '.join(CACHE_COLUMNS)} from {table}") as cur:
                names = [d[0] for d in cur.description]
                return [dict(zip(names, r)) for r in cur.fetchall()]
    except DatabaseUndefinedRelation:
        return []


class ModelScreener:
    """Applies the model's answers to rule-screened rows, caching every answer it gets."""

    def __init__(self, settings: Settings, client: ChatClient | None = None) -> None:
        self.settings = settings
        self.client = client or ChatClient(settings)
        self._cache: dict[tuple[str, str], dict] = {}
        self.off_reason: str | None = None
        self.calls = self.cache_hits = self.fallbacks = 0

    def remember(self, answers: list[dict]) -> None:
        """Cached answers (`read_cached_answers`): those of this version and model are not asked again."""
        self._cache = {(a["arxiv_id"], a["content_hash"]): a for a in answers
                       if a["screener_version"] == MODEL_SCREENER_VERSION and a["model"] == self.model}

    @property
    def model(self) -> str:
        return self.settings.model

    def screen(self, papers: list[dict], rule_rows: list[dict]) -> tuple[list[dict], list[dict]]:
        """(paper_features rows, model_screenings rows of the answers got now)."""
        rows, answers = [], []
        before = (self.calls, self.cache_hits, self.fallbacks)
        for paper, rules in zip(papers, rule_rows, strict=True):
            if not (rules.get("in_pool") or rules.get("is_rl_related")):
                rows.append(rules)  # outside the pool and not RL by the rules: not worth a call
                continue
            row, answer = self._screen_one(paper, rules)
            rows.append(row)
            if answer is not None:
                answers.append(answer)
        asked, cached, fell_back = (now - then for now, then in zip((self.calls, self.cache_hits, self.fallbacks), before))
        log.info("model screener %s: %d papers, %d asked, %d cached answers, %d left to the rules",
                 self.model, len(papers), asked, cached, fell_back)
        return rows, answers

    def _screen_one(self, paper: dict, rules: dict) -> tuple[dict, dict | None]:
        """(the row, the answer got now: None when cached or when none came)."""
        key = (paper["arxiv_id"], content_hash(paper))
        cached, new = self._cache.get(key), None
        if cached is not None:
            self.cache_hits += 1
        elif self.off_reason:
            return self._fallback(rules, f"model off for this run ({self.off_reason})"), None
        else:
            try:
                cached = new = self._cache[key] = self._ask(paper, key)
            except (ModelUnavailable, SourceUnavailable) as exc:
                self.off_reason = redact(str(exc), self.settings.api_key)
                log.warning("model screener %s off for the rest of this run, rules decide: %s",
                            self.model, self.off_reason)
                return self._fallback(rules, f"model unavailable ({self.off_reason})"), None
            except (BadResponse, requests.RequestException) as exc:
                why = redact(str(exc), self.settings.api_key)
                log.warning("model screener: no answer for %s, rules decide: %s", paper["arxiv_id"], why)
                return self._fallback(rules, f"no model answer ({why})"), None
        try:
            if not cached["valid"]:
                raise BadAnswer(cached["problem"])
            answer = validate(cached["answer"])
        except BadAnswer as exc:
            return self._fallback(rules, f"model answer unusable ({exc})"), new
        return decided_row(paper, rules, answer, self.model), new

    def _ask(self, paper: dict, key: tuple[str, str]) -> dict:
        self.calls += 1
        content, usage, problem = None, {}, None
        try:
            content, usage = self.client.complete(messages_for(paper))
            validate(content)
        except BadAnswer as exc:
            problem = str(exc)
        return {"arxiv_id": key[0], "content_hash": key[1], "screener_version": MODEL_SCREENER_VERSION,
                "model": self.model, "answer": content, "valid": problem is None, "problem": problem,
                "prompt_tokens": usage.get("prompt_tokens"), "completion_tokens": usage.get("completion_tokens"),
                "answered_at": datetime.now(timezone.utc)}

    def _fallback(self, rules: dict, note: str) -> dict:
        self.fallbacks += 1
        return {**rules, "screener_note": note}


def default_screener() -> ModelScreener | None:
    """The model screener the environment configures, or None (the rules alone screen)."""
    settings = Settings.from_env()
    return ModelScreener(settings) if settings else None
