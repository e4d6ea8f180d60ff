"""What the suites here share: clients of the server `python_client` started.

`cargo test -p weir-tests --test process -- python_client` starts a `weir-server` with
the standard organization (tests/src/seed.rs) and sets `WEIR_SITE` and, for each
identity, `WEIR_<WHO>_EMAIL` / `WEIR_<WHO>_KEY` (OWNER, MEMBER).
"""

import os
from pathlib import Path
from typing import Callable

import pytest
import zulip


@pytest.fixture
def make_client(tmp_path: Path) -> Callable[[str], zulip.Client]:
    """Builds a client for `who` (OWNER, MEMBER) from a zuliprc file, as Zulip tools do."""

    def make(who: str) -> zulip.Client:
        email = os.environ[f"WEIR_{who}_EMAIL"]
        key = os.environ[f"WEIR_{who}_KEY"]
        rc = tmp_path / f"{who.lower()}.zuliprc"
        rc.write_text(f"[api]\nemail={email}\nkey={key}\nsite={os.environ['WEIR_SITE']}\n")
        # No retries: a 5xx must show up as a failure, not be retried away.
        return zulip.Client(config_file=str(rc), retry_on_errors=False)

    return make
