"""load() on hostile report folders: FIFOs where files should be, and an estimates.csv
that does not match its manifest (issue 30, item 18). No binary needed."""

import json
import os
import signal
import zlib

import pytest

import smartstack

ESTIMATES = b"strategy,estimator,value\nmfu,ips,0.25\nmfu,snips,0.26\n"


def _folder(tmp_path, estimates=ESTIMATES):
    folder = tmp_path / "evaluated"
    folder.mkdir()
    (folder / "estimates.csv").write_bytes(estimates)
    manifest = {"run": "evaluate", "files": [
        {"name": "estimates.csv", "bytes": len(ESTIMATES), "crc32": f"{zlib.crc32(ESTIMATES):08x}"}]}
    return folder, manifest


@pytest.fixture
def deadline():
    """Turns a hang into a failure: a blocking open of a FIFO would wait for ever."""
    def expired(*_):
        raise TimeoutError("load() blocked")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_a_fifo_named_manifest_json_is_refused_not_waited_on(tmp_path, deadline):
    folder = tmp_path / "r"
    folder.mkdir()
    os.mkfifo(folder / "manifest.json")
    with pytest.raises(smartstack.MixedReportError, match="not a regular file"):
        smartstack.load(folder)


def test_a_fifo_the_manifest_lists_is_refused_not_waited_on(tmp_path, deadline):
    folder, manifest = _folder(tmp_path)
    (folder / "estimates.csv").unlink()
    os.mkfifo(folder / "estimates.csv")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(smartstack.MixedReportError, match="not a regular file"):
        smartstack.load(folder)


def test_estimates_csv_is_checked_against_the_manifest(tmp_path):
    folder, manifest = _folder(tmp_path)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert list(smartstack.load(folder)["estimates"]["value"]) == [0.25, 0.26]
    (folder / "estimates.csv").write_bytes(ESTIMATES[:-8])
    with pytest.raises(smartstack.MixedReportError, match="estimates.csv does not match manifest.json"):
        smartstack.load(folder)
