"""Validation of the official client's answers against Zulip's OpenAPI document.

The document is the project's copy (`tests/openapi/zulip.yaml`), handed over by the Rust
side as JSON in `WEIR_OPENAPI_JSON` with the same exceptions applied as in the
black-box harness (`tests/src/openapi/mod.rs`). `validate_against_openapi_schema` takes
the arguments of Zulip's own helper of that name: a success must match the operation's
schema for its status, with `additionalProperties: false` enforced; an error the
operation's schema for its status or one of the document's shared error shapes.
"""

import json
import os
from functools import lru_cache
from typing import Any

from openapi_schema_validator import OAS30Validator


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    with open(os.environ["WEIR_OPENAPI_JSON"], encoding="utf-8") as file:
        return json.load(file)


def _error_shapes(doc: dict[str, Any]) -> list[dict[str, str]]:
    return [
        {"$ref": f"#/components/schemas/{name}"}
        for name in doc["components"]["schemas"]
        if name.endswith("Error")
    ]


def validate_against_openapi_schema(
    content: dict[str, Any], path: str, method: str, status: str
) -> None:
    doc = document()
    response = doc["paths"][path][method]["responses"].get(status, {})
    if "$ref" in response:  # e.g. #/components/responses/SimpleSuccess
        response = doc["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    schema = response.get("content", {}).get("application/json", {}).get("schema")
    if status.startswith("2"):
        assert schema is not None, f"{path} {method} documents no {status} answer"
        assert content.get("result") == "success", content
    else:
        assert content.get("result") == "error", content
        alternatives = _error_shapes(doc) + ([schema] if schema else [])
        schema = {"anyOf": alternatives}
    # `#/components/...` references resolve against the wrapper's root.
    wrapper = dict(schema)
    wrapper["components"] = doc["components"]
    errors = sorted(OAS30Validator(wrapper).iter_errors(content), key=str)
    assert not errors, "\n".join(
        [f"{method.upper()} {path} {status} does not match Zulip's OpenAPI document:"]
        + [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:10]]
    )
