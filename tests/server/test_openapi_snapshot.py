"""The REST API's contract holds: ``GET /openapi.json`` equals the committed snapshot, save descriptions.

Every path, method, parameter, body, response model and status code stays as it was when the routes moved into
routers (issue #42: "identical save descriptions"). A change to the API on purpose rewrites the snapshot:
``python tests/server/test_openapi_snapshot.py`` (then review the diff of tests/server/openapi_snapshot.json).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple.server.app import ServerConfig, create_app
from meeple.web import create_web_app

SNAPSHOT = Path(__file__).with_name("openapi_snapshot.json")


def without_descriptions(document: Any) -> Any:
    """``document`` with every ``description`` key removed, at any depth."""
    if isinstance(document, dict):
        return {k: without_descriptions(v) for k, v in document.items() if k != "description"}
    if isinstance(document, list):
        return [without_descriptions(v) for v in document]
    return document


def _document(make: Any, folder: Path) -> Any:
    app = make(ServerConfig(db=f"sqlite:///{folder / 'api.db'}", bot_workers=0, api_docs=True))
    return without_descriptions(app.openapi())


@pytest.mark.parametrize("make", [create_app, create_web_app], ids=["server", "web"])
def test_the_openapi_document_is_the_snapshot_save_descriptions(make: Any, tmp_path: Path) -> None:
    document = _document(make, tmp_path)
    snapshot = json.loads(SNAPSHOT.read_text())
    assert sorted(document["paths"]) == sorted(snapshot["paths"]), "the same paths"
    for path, operations in snapshot["paths"].items():
        assert document["paths"][path] == operations, f"{path}: methods, parameters, bodies and responses"
    assert document == snapshot


def test_descriptions_do_not_count_but_a_status_code_does(tmp_path: Path) -> None:
    document = _document(create_app, tmp_path)
    changed = json.loads(json.dumps(document))
    changed["paths"]["/api/quickmatch"]["post"]["responses"].pop("409")
    assert changed != json.loads(SNAPSHOT.read_text())
    assert without_descriptions({"a": {"description": "x", "b": [{"description": "y", "c": 1}]}}) == {
        "a": {"b": [{"c": 1}]}
    }


if __name__ == "__main__":  # rewrite the snapshot from this tree
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        SNAPSHOT.write_text(json.dumps(_document(create_app, Path(folder)), indent=1, sort_keys=True) + "\n")
    sys.exit(0)
