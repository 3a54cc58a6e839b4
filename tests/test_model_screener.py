"""The optional model screener against a loopback fake of an OpenAI-compatible /v1/chat/completions
endpoint: replies and error objects in the real shapes (choices[0].message.content, usage;
{"error": {message, type, param, code}} for 401/429/500), answers written for these tests."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import date, datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import dlt
import duckdb
import pytest

from ingestion import config
from ingestion.arxiv.source import arxiv_source
from ingestion.screening.language_model import (
    MODEL_SCREENER_VERSION,
    BadAnswer,
    ChatClient,
    ModelScreener,
    Settings,
    content_hash,
    validate,
)
from ingestion.screening.rules import screen
from worlds.sample.serve import serving_sample_arxiv

KEY = "sk-test-0123456789abcdefSECRET"
MODEL = "screen-mini"
REGISTRY = config.frameworks()
NOW = datetime(2026, 10, 1, 12, tzinfo=timezone.utc)
SHORT = (date(2025, 1, 1), date(2025, 2, 28))

Reply = tuple[int, dict, dict]  # status, headers, JSON body


def completion(content: str | None, finish_reason: str = "stop") -> Reply:
    """A chat.completion object as the Chat Completions API returns it."""
    return 200, {}, {
        "id": "chatcmpl-test123", "object": "chat.completion", "created": 1764720000, "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": None,
                                             "annotations": []},
                     "logprobs": None, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 812, "completion_tokens": 64, "total_tokens": 876,
                  "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                  "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                                "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}},
        "service_tier": "default", "system_fingerprint": "fp_test"}


def api_error(status: int, message: str, type_: str, code: str | None, headers: dict | None = None) -> Reply:
    return status, headers or {}, {"error": {"message": message, "type": type_, "param": None, "code": code}}


RATE_LIMITED = api_error(429, "Rate limit reached for screen-mini in organization org-test on requests per min "
                              "(RPM): Limit 3, Used 3, Requested 1. Please try again in 2s.",
                         "requests", "rate_limit_exceeded", {"Retry-After": "2"})
NO_QUOTA = api_error(429, "You exceeded your current quota, please check your plan and billing details.",
                     "insufficient_quota", "insufficient_quota")
SERVER_ERROR = api_error(500, "The server had an error while processing your request. Sorry about that!",
                         "server_error", None)
# a server that echoes the key it was given (OpenAI echoes a masked one): it must never reach a log or row
BAD_KEY = api_error(401, f"Incorrect API key provided: {KEY}. You can find your API key at your account page.",
                    "invalid_request_error", "invalid_api_key")


def answer(**overrides: object) -> str:
    base = {"is_rl_related": True, "paper_kind": "general_method", "model_report": False, "changes_loss": True,
            "policy_size_b": 32, "releases_code": True, "reason": "Proposes a new policy-gradient objective.",
            "size_evidence": "Qwen2.5-32B", "loss_evidence": "decoupled clip range", "code_evidence": None,
            "report_evidence": None}
    return json.dumps({**base, **overrides})


class FakeChat:
    """POST /v1/chat/completions on loopback. `reply(paper)` answers each request (paper: the user
    message's JSON); `script` replies are served first, one per request."""

    def __init__(self, reply: Callable[[dict], Reply] | None = None, script: list[Reply] | None = None) -> None:
        self.reply = reply or (lambda paper: completion(answer()))
        self.script = list(script or [])
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, "authorization": self.headers.get("Authorization"),
                                      "body": body})
                paper = json.loads(body["messages"][-1]["content"])
                status, headers, payload = fake.script.pop(0) if fake.script else fake.reply(paper)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeChat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def screener(fake: FakeChat, slept: list[float] | None = None, cached: list[dict] = ()) -> ModelScreener:
    settings = Settings(fake.base_url, MODEL, KEY)
    client = ChatClient(settings, backoff_s=0.01, max_backoff_s=0.02,
                        sleep=(slept.append if slept is not None else lambda s: None))
    s = ModelScreener(settings, client)
    s.remember(list(cached))
    return s


PAPER = {"arxiv_id": "2601.00001", "title": "Clip-Decoupled Policy Optimization for LLM Reasoning",
         "abstract": "We propose a reinforcement learning algorithm for language models that decouples the "
                     "upper and lower clipping range of the importance ratio. We train Qwen2.5-32B.",
         "comment": None, "authors": "[]", "code_urls": "[]"}
OFF_TOPIC = {"arxiv_id": "2601.00002", "title": "Sparse kernels for graph partitioning",
             "abstract": "We speed up a graph partitioning kernel on CPUs.", "comment": None, "authors": "[]",
             "code_urls": "[]"}


def rules(paper: dict) -> dict:
    return {**screen(paper, REGISTRY), "screener": "rules"}


# --- validation ----------------------------------------------------------------------------------
def test_validate_accepts_the_prompted_object_bare_or_fenced():
    got = validate(answer(policy_size_b=235, reason="  Proposes\n a loss.  "))
    assert (got["paper_kind"], got["policy_size_b"], got["reason"], got["code_evidence"]) == (
        "general_method", 235.0, "Proposes a loss.", None)
    assert validate("```json\n" + answer() + "\n```")["changes_loss"] is True
    assert validate(answer(extra_key="ignored"))["is_rl_related"] is True


@pytest.mark.parametrize(("content", "problem"), [
    ("The paper proposes a method.", "not JSON"),
    ('{"is_rl_related": true, "paper_kind": "general_method"', "not JSON"),
    ("[1, 2]", "not a JSON object"),
    (json.dumps({k: v for k, v in json.loads(answer()).items() if k != "changes_loss"}), "missing field(s): changes_loss"),
    (answer(is_rl_related="yes"), "is_rl_related is \"yes\", not a boolean"),
    (answer(paper_kind="method"), "paper_kind 'method' is not one of"),
    (answer(paper_kind="not_rl"), "contradicts is_rl_related"),
    (answer(policy_size_b=-7), "outside (0, 10000]"),
    (answer(policy_size_b=7e5), "outside (0, 10000]"),
    (answer(policy_size_b="32B"), "not a number or null"),
    (answer(policy_size_b=True), "not a number or null"),
    (answer(reason=" "), "empty reason"),
    (answer(loss_evidence=["clip"]), "loss_evidence is"),
    ("", "empty answer"),
    (None, "empty answer"),
])
def test_validate_rejects_what_the_prompt_does_not_allow(content, problem):
    with pytest.raises(BadAnswer) as err:
        validate(content)
    assert problem in str(err.value)


# --- screening one batch ---------------------------------------------------------------------------
def test_a_valid_answer_decides_with_the_models_reason_as_signal():
    with FakeChat() as fake:
        s = screener(fake)
        rows, answers = s.screen([PAPER, OFF_TOPIC], [rules(PAPER), rules(OFF_TOPIC)])
    assert len(fake.requests) == 1  # the off-topic paper (not in the pool, not RL) is left to the rules
    sent = fake.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["authorization"] == f"Bearer {KEY}"
    assert sent["body"]["model"] == MODEL and sent["body"]["response_format"] == {"type": "json_object"}
    assert json.loads(sent["body"]["messages"][1]["content"])["title"] == PAPER["title"]
    row = rows[0]
    assert (row["screener"], row["screener_model"], row["paper_kind"], row["changes_loss"], row["policy_size_b"],
            row["releases_code"]) == ("model", MODEL, "general_method", True, 32.0, True)
    assert row["kind_signal"] == "model: Proposes a new policy-gradient objective."
    assert row["loss_signal"] == "model: decoupled clip range" and row["size_signal"] == "model: Qwen2.5-32B"
    assert row["code_signal"] == "model: Proposes a new policy-gradient objective."  # no evidence: the reason
    assert row["in_pool"] == rules(PAPER)["in_pool"] and row["screener_version"] == rules(PAPER)["screener_version"]
    assert rows[1] == rules(OFF_TOPIC)
    assert [(a["arxiv_id"], a["content_hash"], a["screener_version"], a["model"], a["valid"], a["prompt_tokens"])
            for a in answers] == [(PAPER["arxiv_id"], content_hash(PAPER), MODEL_SCREENER_VERSION, MODEL, True, 812)]


def test_fields_are_scoped_as_the_rules_scope_them():
    with FakeChat(lambda p: completion(answer(paper_kind="survey", changes_loss=True, policy_size_b=70))) as fake:
        row = screener(fake).screen([PAPER], [rules(PAPER)])[0][0]
    assert (row["paper_kind"], row["changes_loss"], row["loss_signal"], row["policy_size_b"], row["defined_methods"]) \
        == ("survey", False, None, None, "[]")


def test_cached_answers_make_no_calls_and_a_new_text_asks_again():
    with FakeChat() as fake:
        first, answers = screener(fake).screen([PAPER], [rules(PAPER)])
        again, new = screener(fake, cached=answers).screen([PAPER], [rules(PAPER)])
        assert len(fake.requests) == 1 and again == first and new == []
        other_model = [{**a, "model": "other"} for a in answers]
        older = [{**a, "screener_version": "m0"} for a in answers]
        revised = {**PAPER, "abstract": PAPER["abstract"] + " Code is available."}
        screener(fake, cached=other_model + older).screen([PAPER], [rules(PAPER)])
        screener(fake, cached=answers).screen([revised], [rules(revised)])
        assert len(fake.requests) == 3


@pytest.mark.parametrize("reply", [
    completion("Sure! This paper is a general method."),
    completion(json.dumps({"is_rl_related": True, "paper_kind": "general_method"})),
    completion(answer(policy_size_b=-1)),
    completion(answer(paper_kind="theory")),
    completion(None),
    completion('{"is_rl_related": true, "paper_kind": "gen', finish_reason="length"),
])
def test_unusable_answers_fall_back_to_the_rules_with_the_reason_and_are_cached(reply):
    with FakeChat(lambda p: reply) as fake:
        s = screener(fake)
        rows, answers = s.screen([PAPER], [rules(PAPER)])
        row = rows[0]
        assert {k: v for k, v in row.items() if k != "screener_note"} == rules(PAPER)
        assert row["screener"] == "rules" and row["screener_note"].startswith("model answer unusable (")
        assert answers[0]["valid"] is False and answers[0]["problem"] in row["screener_note"]
        assert screener(fake, cached=answers).screen([PAPER], [rules(PAPER)])[0] == rows  # no second call
        assert len(fake.requests) == 1


def test_rate_limit_then_success_waits_as_the_server_asks():
    slept: list[float] = []
    retry_ms = (503, {"retry-after-ms": "1500"}, SERVER_ERROR[2])
    with FakeChat(script=[RATE_LIMITED, retry_ms, SERVER_ERROR]) as fake:
        rows, _ = screener(fake, slept).screen([PAPER], [rules(PAPER)])
    assert rows[0]["screener"] == "model" and len(fake.requests) == 4
    assert slept[:2] == [2.0, 1.5] and 0 < slept[2] < 1  # Retry-After, retry-after-ms, then own backoff


def test_an_endpoint_that_keeps_failing_is_off_for_the_rest_of_the_run(caplog):
    other = {**PAPER, "arxiv_id": "2601.00003"}
    with FakeChat(lambda p: SERVER_ERROR) as fake:
        s = screener(fake)
        rows, answers = s.screen([PAPER, other], [rules(PAPER), rules(other)])
    assert len(fake.requests) == 5 and answers == []  # one paper's retries, then no more calls
    assert rows[0]["screener_note"].startswith("model unavailable (POST ") and "HTTP 500" in rows[0]["screener_note"]
    assert rows[1]["screener_note"].startswith("model off for this run (")
    assert all(r["screener"] == "rules" for r in rows)


def test_a_paper_the_endpoint_refuses_falls_back_alone():
    too_long = api_error(400, "This model's maximum context length is 8192 tokens.", "invalid_request_error",
                         "context_length_exceeded")
    other = {**PAPER, "arxiv_id": "2601.00003"}
    with FakeChat(script=[too_long]) as fake:
        rows, answers = screener(fake).screen([PAPER, other], [rules(PAPER), rules(other)])
    assert len(fake.requests) == 2 and [a["arxiv_id"] for a in answers] == ["2601.00003"]  # not cached
    assert rows[0]["screener_note"] == ("no model answer (HTTP 400 invalid_request_error context_length_exceeded: "
                                        "This model's maximum context length is 8192 tokens.)")
    assert rows[1]["screener"] == "model"


def test_a_used_up_quota_is_not_retried():
    with FakeChat(script=[NO_QUOTA]) as fake:
        rows, _ = screener(fake).screen([PAPER, PAPER], [rules(PAPER), rules(PAPER)])
    assert len(fake.requests) == 1
    assert "insufficient_quota" in rows[0]["screener_note"] and "model off" in rows[1]["screener_note"]


def test_a_refused_key_never_reaches_logs_or_rows(caplog):
    caplog.set_level(logging.DEBUG)
    with FakeChat(lambda p: BAD_KEY) as fake:
        s = screener(fake)
        rows, answers = s.screen([PAPER], [rules(PAPER)])
    assert len(fake.requests) == 1 and answers == []
    assert "HTTP 401 invalid_request_error invalid_api_key" in rows[0]["screener_note"]
    assert "[redacted]" in rows[0]["screener_note"]
    assert KEY not in json.dumps(rows, default=str) and KEY not in caplog.text and KEY not in repr(s.settings)


def test_settings_come_from_the_environment_and_are_off_without_url_and_model(monkeypatch):
    for name in ("RLTRACK_SCREENER_BASE_URL", "RLTRACK_SCREENER_MODEL", "RLTRACK_SCREENER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert Settings.from_env() is None
    monkeypatch.setenv("RLTRACK_SCREENER_BASE_URL", "http://127.0.0.1:9/v1/")
    assert Settings.from_env() is None
    monkeypatch.setenv("RLTRACK_SCREENER_MODEL", MODEL)
    monkeypatch.setenv("RLTRACK_SCREENER_API_KEY", KEY)
    monkeypatch.setenv("RLTRACK_SCREENER_JSON_MODE", "0")
    got = Settings.from_env()
    assert (got.base_url, got.model, got.api_key, got.json_mode) == ("http://127.0.0.1:9/v1", MODEL, KEY, False)
    assert KEY not in repr(got)


# --- through the arXiv source: cache in the warehouse, kept by a full rebuild ----------------------------
def _pipeline(tmp_path):
    return dlt.pipeline(pipeline_name="model_screen_test", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        dataset_name="raw_arxiv", pipelines_dir=str(tmp_path / "dlt"))


def _query(tmp_path, sql):
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        return con.sql(sql).fetchall()


def _load(pipe, fake: FakeChat | None, **run_kwargs):
    """Load the sample's papers; with `fake`, the model screener asks it (else the screener is off)."""
    settings = Settings(fake.base_url, MODEL, KEY) if fake else None
    model = ModelScreener(settings, ChatClient(settings, sleep=lambda s: None)) if settings else None
    with serving_sample_arxiv() as world:
        return pipe.run(arxiv_source(world=world, window=SHORT, now=NOW, model_screener=model), **run_kwargs)


def test_loaded_rows_say_which_screener_decided_and_reruns_cost_nothing(tmp_path, monkeypatch, caplog):
    import ingestion.screening.rules as screening_rules

    caplog.set_level(logging.DEBUG)

    def by_title(paper: dict) -> Reply:  # an invalid answer for some papers, a valid one for the rest
        return completion("not json" if len(paper["title"]) % 3 == 0 else answer(paper_kind="application"))

    pipe = _pipeline(tmp_path)
    with FakeChat(by_title) as fake:
        _load(pipe, fake)
        asked = len(fake.requests)
    assert asked > 0
    by_screener = dict(_query(tmp_path, "select screener, count(*) from raw_arxiv.paper_features group by 1"))
    pool = _query(tmp_path, "select count(*) from raw_arxiv.paper_features where in_pool or is_rl_related")[0][0]
    assert by_screener.get("model", 0) + by_screener.get("rules", 0) == sum(by_screener.values())
    assert _query(tmp_path, "select count(*) from raw_arxiv.model_screenings")[0][0] == asked == pool
    assert _query(tmp_path, "select count(*) from raw_arxiv.paper_features where screener = 'model' "
                            "and (kind_signal not like 'model: %' or paper_kind <> 'application')")[0][0] == 0
    invalid = _query(tmp_path, "select count(*) from raw_arxiv.model_screenings where not valid")[0][0]
    assert 0 < invalid < asked
    assert invalid == _query(tmp_path, "select count(*) from raw_arxiv.paper_features "
                                       "where screener_note like 'model answer unusable (not JSON%'")[0][0]
    decisions = "select * exclude (_dlt_load_id, _dlt_id, screener_version) from raw_arxiv.paper_features order by 1"
    before = _query(tmp_path, decisions)

    # new rules: every paper is fetched and screened again, the model is asked nothing
    monkeypatch.setattr(screening_rules, "SCREENER_VERSION", "test-next")  # the source reads it through screener_version
    with FakeChat() as fake:
        _load(pipe, fake)
        assert fake.requests == []
    # a full rebuild drops the raw tables, the cached answers are loaded again: with the model off
    # (the rules decide) and then on (nothing asked, the same decisions as before)
    _load(pipe, None, refresh="drop_sources")
    assert _query(tmp_path, "select count(*) from raw_arxiv.model_screenings")[0][0] == asked
    assert _query(tmp_path, "select distinct screener from raw_arxiv.paper_features") == [("rules",)]
    with FakeChat() as fake:
        _load(pipe, fake, refresh="drop_sources")
        assert fake.requests == []
    assert _query(tmp_path, "select count(*) from raw_arxiv.model_screenings")[0][0] == asked
    assert _query(tmp_path, decisions) == before
    # an incremental run with the model off does not touch the cache
    loads = _query(tmp_path, "select count(distinct _dlt_load_id) from raw_arxiv.model_screenings")
    _load(pipe, None)
    assert _query(tmp_path, "select count(distinct _dlt_load_id) from raw_arxiv.model_screenings") == loads

    # the key is in no log line, no warehouse value and no file dlt kept
    assert KEY not in caplog.text
    assert all(KEY.encode() not in f.read_bytes() for f in tmp_path.rglob("*") if f.is_file())


def test_prompt_states_the_labels_definitions():
    """The prompt asks for what the hand labels mean (../shared/truth/README.md): every kind, the
    general-method/application line, what counts as a loss change and as a code release."""
    from ingestion.screening.language_model import SYSTEM_PROMPT
    from ingestion.screening.rules import KINDS

    text = " ".join(SYSTEM_PROMPT.split())
    assert all(f"{kind}:" in text or f"{kind} /" in text or f"/ {kind}:" in text for kind in KINDS)
    for phrase in ("meant to apply across tasks", "an RL recipe for one domain", "training infrastructure",
                   "coefficient, clip range, mask, weight or normalisation inside an existing policy loss",
                   "links its own code", "not_rl: exactly when is_rl_related is false"):
        assert phrase in text, phrase
