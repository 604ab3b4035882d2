"""The container image recipe (Dockerfile): its build context holds everything the package needs, the image
installs the tool and runs it on the mounted working directory.

Building the image needs a Docker daemon; where there is none that test is skipped, saying so, and the
build context is still checked without Docker: the files `COPY . .` would send, less .dockerignore, build
the wheel the Dockerfile installs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
from reporting import ROOT, SAMPLE

IMAGE = "baccarat-audit:test"


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def ignored(rel: str, patterns: list[str]) -> bool:
    """Docker's rule for the patterns used here: a path is left out when it, or a directory above it, matches;
    ``**/`` matches at any depth."""
    parts = rel.split("/")
    for pattern in patterns:
        for i in range(1, len(parts) + 1):
            here = "/".join(parts[:i])
            if fnmatchcase(here, pattern):
                return True
            if pattern.startswith("**/") and fnmatchcase(parts[i - 1], pattern[3:]):
                return True
    return False


def build_context(target: Path) -> list[str]:
    """Copy what `docker build .` would send to ``target``; the relative paths copied."""
    patterns = dockerignore()
    sent = []
    for root, dirs, files in os.walk(ROOT):
        here = Path(root).relative_to(ROOT).as_posix()
        prefix = "" if here == "." else here + "/"
        dirs[:] = sorted(d for d in dirs if not ignored(prefix + d, patterns))
        for name in sorted(files):
            rel = prefix + name
            if not ignored(rel, patterns):
                (target / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(ROOT / rel, target / rel)
                sent.append(rel)
    return sent


def test_the_dockerfile_installs_the_tool_and_runs_it_unprivileged():
    steps = [line.split(None, 1) for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#") and not line.startswith((" ", "\t"))]
    words = [s[0] for s in steps]
    assert words.count("FROM") == 2 and ["COPY", ". ."] in [[s[0], s[1]] for s in steps if len(s) > 1]
    assert ["ENTRYPOINT", '["baccarat-audit"]'] in steps and ["WORKDIR", "/work"] in steps
    user = [s[1] for s in steps if s[0] == "USER"]
    assert user and user[-1] not in ("root", "0")


@pytest.mark.install
def test_the_build_context_builds_the_package_the_image_installs(tmp_path):
    context = tmp_path / "context"
    sent = build_context(context)
    assert not any(p.startswith((".venv/", ".git/", "out/")) or "__pycache__" in p for p in sent)
    assert "pyproject.toml" in sent and "Dockerfile" in sent
    wheels = tmp_path / "wheels"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        "--quiet", "--wheel-dir", str(wheels), str(context)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = wheels.glob("baccarat_audit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    packages = {p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "compliance").rglob("__init__.py")}
    assert {p for p in packages if f"{p}/__init__.py" not in names} == set()
    assert {f"compliance/rulesets/{p.name}" for p in (ROOT / "rulesets").glob("*.yaml")} <= set(names)


def _docker() -> str | None:
    docker = shutil.which("docker")
    if docker is None:
        return None
    try:
        ok = subprocess.run([docker, "info"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return None
    return docker if ok else None


@pytest.mark.install
def test_the_image_builds_and_checks_a_mounted_transcript(tmp_path):
    docker = _docker()
    if docker is None:
        pytest.skip("no Docker daemon here (docker info fails): the build context is checked without it above")
    build = subprocess.run([docker, "build", "-t", IMAGE, str(ROOT)], capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    shutil.copyfile(SAMPLE, tmp_path / "night-shift.json")
    user = f"{os.getuid()}:{os.getgid()}"  # as the docs run it: the reports are written as this user
    r = subprocess.run([docker, "run", "--rm", "-v", f"{tmp_path}:/work", "--user", user, IMAGE, "check",
                        "night-shift.json",
                        "-f", "json", "-o", "html=reports/audit.html", "-o", "json=-"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert {f["transcript"] for f in json.loads(r.stdout)["findings"]} == {"night-shift.json"}
    assert (tmp_path / "reports" / "audit.html").exists()
    version = subprocess.run([docker, "run", "--rm", IMAGE, "--version"], capture_output=True, text=True, timeout=120)
    assert version.stdout.startswith("baccarat-audit ")
