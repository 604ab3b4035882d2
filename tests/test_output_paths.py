"""An output path never destroys a file: not a device, not a link, not the evidence, not through a planted temp file.

* ``-o FILE`` and ``--write-baseline FILE`` replace only a regular file (or
  make a new one), atomically; a FIFO or a character device is written
  plainly (never replaced); a directory, a block device, a socket and a link
  to a regular file or to nothing are refused with exit 2; ``-`` and
  ``/dev/stdout`` are standard output;
* an output that is a file the run reads (transcript, Markdown document,
  ruleset, waivers, baseline, configuration), by any name, is refused with
  exit 2 before anything is written;
* the temporary file is unpredictable and created exclusively; it is removed
  on every way out, and one left by a run killed outright is removed by the
  next run that writes there.
"""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from reporting import ROOT, STAMP, sample_into

from compliance import outputs
from compliance.errors import UserError

CLI = [sys.executable, "-m", "compliance"]


def plain_run(*args: str):
    """`check` in this process without reading back the outputs (a FIFO or a device cannot be read back)."""
    from typer.testing import CliRunner

    from compliance.cli import app

    return CliRunner().invoke(app, [str(a) for a in args], env={"NO_COLOR": "1"})


# ------------------------------------------------------------------ devices, FIFOs, links, standard output


def test_a_character_device_is_written_plainly_never_replaced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    before = os.stat("/dev/null")
    r = plain_run("check", "night-shift.json", "-o", "json=/dev/null")
    assert r.exit_code == 1
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert not [p for p in Path("/dev").iterdir() if p.name.startswith(".null")]  # no temporary file there


def test_dev_stdout_is_standard_output_and_the_link_is_left_alone(tmp_path):
    sample_into(tmp_path)
    link = os.readlink("/dev/stdout") if os.path.islink("/dev/stdout") else None
    r = subprocess.run(CLI + ["check", "night-shift.json", "-o", "text=/dev/stdout"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "BAC-WAGER-LATE" in r.stdout
    assert r.stdout.splitlines()[-1] == ("checked 1 transcript, 6 coups, 6 findings: 6 error; "
                                         "net 50 USD paid to patrons beyond what was due")
    assert (os.readlink("/dev/stdout") if os.path.islink("/dev/stdout") else None) == link


def test_a_fifo_is_written_once_and_stays_a_fifo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    os.mkfifo("report.json")
    got = []
    reader = threading.Thread(target=lambda: got.append(Path("report.json").read_bytes()))
    reader.start()
    r = plain_run("check", "night-shift.json", "-o", "json=report.json", "--timestamp", STAMP)
    reader.join(30)
    assert r.exit_code == 1 and got and b'"BAC-WAGER-LATE"' in got[0]
    assert stat.S_ISFIFO(os.lstat("report.json").st_mode)


def test_a_link_to_a_regular_file_is_refused_and_both_are_left_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "victim.txt").write_text("someone else's file\n")
    os.symlink("victim.txt", "report.json")
    r = plain_run("check", "night-shift.json", "-o", "json=report.json")
    assert r.exit_code == 2 and "is a symbolic link to victim.txt" in r.stderr
    assert (tmp_path / "victim.txt").read_text() == "someone else's file\n"
    assert os.readlink("report.json") == "victim.txt"


def test_a_dangling_link_is_refused_and_creates_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    os.symlink(str(tmp_path / "planted"), "report.json")
    r = plain_run("check", "night-shift.json", "--write-baseline", "report.json")
    assert r.exit_code == 2 and "which does not exist" in r.stderr
    assert not (tmp_path / "planted").exists()


def test_a_directory_and_a_socket_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "out").mkdir()
    r = plain_run("check", "night-shift.json", "-o", "json=out")
    assert r.exit_code == 2 and "out: is a directory" in r.stderr
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind("report.sock")
        r = plain_run("check", "night-shift.json", "-o", "json=report.sock")
        assert r.exit_code == 2 and "is a socket" in r.stderr
        assert stat.S_ISSOCK(os.lstat("report.sock").st_mode)
    finally:
        s.close()


def test_a_block_device_is_refused():
    assert "block device" in outputs._describe(stat.S_IFBLK | 0o660)
    disks = [p for p in ("/dev/loop0", "/dev/sda", "/dev/vda", "/dev/nvme0n1") if os.path.exists(p)
             and stat.S_ISBLK(os.stat(p).st_mode)]
    for disk in disks:
        with pytest.raises(UserError, match="block device"):
            outputs.resolve(disk)


# ------------------------------------------------------------------ never over what the run reads


def _files(tmp_path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir()) if p.is_file() and not p.is_symlink()}


WAIVERS = "waivers:\n  - {rule: BAC-WAGER-LATE, justification: accepted, approved_by: A. B, expires: 2099-01-01}\n"


@pytest.mark.parametrize("case", ["transcript", "baseline written over the transcript", "through a link to its dir",
                                  "hard link", "markdown document", "waivers", "baseline read",
                                  "baseline written over the baseline read", "configuration", "ruleset"])
def test_an_output_that_is_a_file_the_run_reads_is_refused(tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path, "r3.json")
    (tmp_path / "w.yaml").write_text(WAIVERS)
    plain_run("check", "r3.json", "--write-baseline", "known.json")
    (tmp_path / "doc.md").write_text("# dealing\n\n```baccarat-transcript\n" + (tmp_path / "r3.json").read_text()
                                     + "```\n")
    (tmp_path / "house.yaml").write_text("id: house\ntitle: house\nversion: '1'\nextends: us-nj\n")
    (tmp_path / ".baccarat-audit.yaml").write_text("fail-on: error\n")
    os.symlink(".", "same")
    os.link("r3.json", "hard.json")
    args = {
        "transcript": ["r3.json", "-o", "json=r3.json"],
        "baseline written over the transcript": ["r3.json", "--write-baseline", "r3.json"],
        "through a link to its dir": ["r3.json", "-o", "json=same/r3.json"],
        "hard link": ["r3.json", "-o", "json=hard.json"],
        "markdown document": ["doc.md", "-o", "markdown=doc.md"],
        "waivers": ["r3.json", "--waivers", "w.yaml", "-o", "text=w.yaml"],
        "baseline read": ["r3.json", "--baseline", "known.json", "-o", "json=known.json"],
        "baseline written over the baseline read": ["r3.json", "--baseline", "known.json", "--write-baseline",
                                                    "known.json"],
        "configuration": ["r3.json", "-o", "text=.baccarat-audit.yaml"],
        "ruleset": ["r3.json", "--ruleset", "house.yaml", "-o", "json=house.yaml"],
    }[case]
    before = _files(tmp_path)
    r = plain_run("check", *args)
    assert r.exit_code == 2 and "this run reads: an output never overwrites what is checked" in r.stderr, r.stderr
    assert _files(tmp_path) == before  # nothing written at all, not even another report


def test_a_bundled_ruleset_file_is_never_an_output(tmp_path, monkeypatch):
    from compliance.ruleset.loader import bundled_dir

    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    target = bundled_dir() / "us-nj.yaml"
    before = target.read_bytes()
    r = plain_run("check", "night-shift.json", "-o", f"json={target}")
    assert r.exit_code == 2 and "a bundled ruleset file" in r.stderr
    assert target.read_bytes() == before


def test_two_outputs_to_one_file_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = plain_run("check", "night-shift.json", "-o", "json=report", "-o", "html=./report")
    assert r.exit_code == 2 and "is written twice" in r.stderr
    assert not (tmp_path / "report").exists()


# ------------------------------------------------------------------ the temporary file


def test_a_planted_link_at_the_old_predictable_temporary_name_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    for pid in (os.getpid(), os.getppid()):  # the name the old code would have used
        os.symlink(victim, tmp_path / f".report.json.{pid}.tmp")
    outputs.write(tmp_path / "report.json", b"the report\n")
    assert victim.read_text() == "keep me\n"
    assert (tmp_path / "report.json").read_text() == "the report\n"
    assert stat.S_IMODE(os.stat(tmp_path / "report.json").st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_the_temporary_file_is_unpredictable_and_created_exclusively(tmp_path, monkeypatch):
    seen = []
    real = os.replace

    def spy(src, dst):
        seen.append(Path(src).name)
        st = os.lstat(src)
        assert stat.S_ISREG(st.st_mode) and st.st_nlink == 1
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    for _ in range(3):
        outputs.write(tmp_path / "report.json", b"x")
    assert len(set(seen)) == 3  # a new random name every time
    assert all(name.startswith(f".report.json.{os.getpid()}.") and name.endswith(outputs.TMP_SUFFIX)
               for name in seen)
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


WRITER = """
import sys, time
from compliance import outputs
def slow(f):
    f.write(b"half a report")
    f.flush()
    time.sleep(120)
outputs.write(sys.argv[1], slow)
"""


def _temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(outputs.TMP_SUFFIX))


def _start_writer(target: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], cwd=ROOT)
    deadline = time.monotonic() + 30
    while not any(f".{target.name}.{proc.pid}." in n for n in _temporaries(target.parent)):
        assert time.monotonic() < deadline and proc.poll() is None, "the writer should be writing"
        time.sleep(0.05)
    return proc


def test_a_temporary_file_left_by_a_run_killed_outright_is_removed_by_the_next_run(tmp_path):
    killed = _start_writer(tmp_path / "report.json")
    killed.send_signal(signal.SIGKILL)
    killed.wait(10)
    left = _temporaries(tmp_path)
    assert len(left) == 1  # kill -9 cannot be caught: the partial file stays...
    alive = _start_writer(tmp_path / "other.json")  # ...next to one whose writer still runs
    try:
        (tmp_path / ".notes.123.tmp").write_text("not ours")
        outputs.write(tmp_path / "report.json", b"whole\n")  # the next run that writes here
        assert left[0] not in _temporaries(tmp_path)
        assert [n for n in _temporaries(tmp_path) if f".{alive.pid}." in n], "a live writer's file is kept"
        assert (tmp_path / ".notes.123.tmp").exists() and (tmp_path / "report.json").read_text() == "whole\n"
    finally:
        alive.kill()
        alive.wait(10)


@pytest.mark.parametrize("sig, status", [(signal.SIGHUP, 129), (signal.SIGTERM, 143)])
def test_a_signal_while_the_report_is_written_removes_the_temporary_file(tmp_path, sig, status):
    proc = subprocess.Popen(CLI + ["simulate", "-r", "us-nj", "-n", "5000000", "-o", "big.jsonl"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not _temporaries(tmp_path):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == status and b"Traceback" not in err
    assert list(tmp_path.iterdir()) == []


class _Stopped(BaseException):
    pass


def test_a_signal_the_instant_the_temporary_file_is_created_still_removes_it(tmp_path, monkeypatch):
    """A signal that lands the instant after the temporary file is made, before its descriptor is kept: the run
    stops, and neither the file nor a report is left."""
    made = os.open

    def open_then_signal(*args, **kwargs):
        fd = made(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)  # handled at once: before the descriptor is even kept
        return fd

    def stop(signum, frame):
        raise _Stopped

    previous = signal.signal(signal.SIGTERM, stop)
    monkeypatch.setattr(outputs.os, "open", open_then_signal)
    try:
        with pytest.raises(_Stopped):
            outputs.write(tmp_path / "report.json", b"whole\n")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert list(tmp_path.iterdir()) == []
