#!/usr/bin/env python3
"""Run script.cql through cqlsh, step by step, and check the output against expected.txt.

Each step ("-- step: NAME" in script.cql) goes to its own cqlsh process on
standard input, so errors are reported as "<stdin>:LINE:..." and the steps'
outputs cannot interleave. The output compared is stdout, then stderr with each
line prefixed "! ", then "exit N".

expected.txt holds, per step, a header "== NAME" and the expected lines:
  a plain line        must equal the output line (trailing spaces ignored)
  re:PATTERN          the output line must match PATTERN entirely
  ...                 skips output lines until the next expected line matches
                      (at the end of a step: skips the rest of the step)
Lines cqlsh prints about its own build (the "built against" warning) are dropped,
and the run's keyspace name is replaced by ${KS} before comparing; ${RF} in the
script is the keyspace's replication factor (BALLOT_RF, default 1), and its
value in DESCRIBE output reads back as ${RF}; ${HERE} is this directory (COPY's
input files); each step runs at BALLOT_CONSISTENCY (default ONE), in a scratch
directory that holds the files COPY writes.

Usage: run_cqlsh.py [--actual FILE]   (BALLOT_HOST, BALLOT_PORT pick the target; BALLOT_USER, BALLOT_PASSWORD and
BALLOT_TLS_CA log in and speak TLS, see write_secure_config)
--actual writes the normalised output, to help review expected.txt by hand.
"""

import argparse
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
STEP_TIMEOUT_S = 60
DROPPED = [re.compile(r"^WARNING: cqlsh was built against .*"), re.compile(r"^Consistency level set to .*")]


def cqlsh_command():
    explicit = os.environ.get("CQLSH")
    if explicit:
        return [explicit]
    beside_python = Path(sys.executable).parent / "cqlsh"
    return [str(beside_python)] if beside_python.exists() else ["cqlsh"]


def write_secure_config(home):
    """Secure mode (tests/run-secure-suites.sh): cqlsh logs in as BALLOT_USER from ~/.cassandra/credentials (a password
    on its command line or in cqlshrc makes it print a warning into the compared output), and speaks TLS checking the
    node's certificate against the CA in BALLOT_TLS_CA. Without them, cqlsh gets neither file."""
    config_dir = home / ".cassandra"
    config_dir.mkdir(mode=0o700)
    if os.environ.get("BALLOT_USER"):
        credentials = config_dir / "credentials"
        credentials.touch(mode=0o600)  # cqlsh ignores a credentials file that others may read
        credentials.write_text("[plain_text_auth]\nusername = %s\npassword = %s\n"
                               % (os.environ["BALLOT_USER"], os.environ.get("BALLOT_PASSWORD", "")))
    if os.environ.get("BALLOT_TLS_CA"):
        (config_dir / "cqlshrc").write_text("[connection]\nssl = true\n\n[ssl]\ncertfile = %s\nvalidate = true\n"
                                            % os.environ["BALLOT_TLS_CA"])


def parse_steps(text):
    steps, name, lines = [], None, []
    for line in text.splitlines():
        match = re.match(r"^-- step: (\S+)\s*$", line)
        if match:
            if name:
                steps.append((name, "\n".join(lines) + "\n"))
            name, lines = match.group(1), []
        elif name:
            lines.append(line)
    if name:
        steps.append((name, "\n".join(lines) + "\n"))
    return steps


def parse_expected(text):
    expected, name = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            name = line[3:].strip()
            expected[name] = []
        elif name is not None:
            expected[name].append(line.rstrip())
    for lines in expected.values():
        while lines and lines[-1] == "":
            lines.pop()
    return expected


def run_step(cql, keyspace, env):
    host = os.environ.get("BALLOT_HOST", "127.0.0.1")
    port = os.environ.get("BALLOT_PORT", "9042")
    rf = os.environ.get("BALLOT_RF", "1")
    consistency = os.environ.get("BALLOT_CONSISTENCY", "ONE")
    proc = subprocess.run(cqlsh_command() + [host, port, "--request-timeout", "30"],
                          # on the script's first line, so cqlsh's error positions stay as they are
                          input="CONSISTENCY %s; " % consistency
                                + cql.replace("${KS}", keyspace).replace("${RF}", rf).replace("${HERE}", str(HERE)),
                          capture_output=True, text=True, timeout=STEP_TIMEOUT_S, env=env, cwd=env["HOME"])
    lines = proc.stdout.splitlines() + ["! " + line for line in proc.stderr.splitlines()]
    factor = "'replication_factor': '%s'" % rf
    lines = [line.rstrip().replace(keyspace, "${KS}").replace(factor, "'replication_factor': '${RF}'") for line in lines
             if not any(p.match(line.lstrip("! ")) for p in DROPPED)]
    while lines and lines[-1] == "":
        lines.pop()
    return lines + ["exit %d" % proc.returncode]


def line_matches(pattern, line):
    if pattern.startswith("re:"):
        return re.fullmatch(pattern[3:], line) is not None
    return pattern == line


def compare(expected, actual):
    """None if actual satisfies expected, else a description of the first mismatch."""
    i = 0
    skipping = False
    for pattern in expected:
        if pattern == "...":
            skipping = True
            continue
        while skipping and i < len(actual) and not line_matches(pattern, actual[i]):
            i += 1
        skipping = False
        if i >= len(actual):
            return "missing line %r (output ended)" % pattern
        if not line_matches(pattern, actual[i]):
            return "line %d: expected %r, got %r" % (i + 1, pattern, actual[i])
        i += 1
    if not skipping and i < len(actual):
        return "unexpected extra line %d: %r" % (i + 1, actual[i])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actual", help="write the normalised output of every step to this file")
    args = parser.parse_args()

    keyspace = "ballot_cqlsh_%s_%s" % (time.strftime("%Y%m%d%H%M%S"), secrets.token_hex(3))
    steps = parse_steps((HERE / "script.cql").read_text())
    expected = parse_expected((HERE / "expected.txt").read_text())
    missing = [name for name, _ in steps if name not in expected]
    if missing:
        print("expected.txt has no section for step(s): %s" % ", ".join(missing))
        return 1

    home = tempfile.mkdtemp(prefix="cqlsh-home-")  # no user cqlshrc, no history file
    write_secure_config(Path(home))
    env = dict(os.environ, HOME=home, TZ="UTC", LC_ALL="C.UTF-8", COLUMNS="200")
    passed, failed, report = 0, 0, []
    try:
        for name, cql in steps:
            started = time.monotonic()
            actual = run_step(cql, keyspace, env)
            report.append("== %s\n%s\n" % (name, "\n".join(actual)))
            problem = compare(expected[name], actual)
            elapsed = time.monotonic() - started
            if problem:
                failed += 1
                print("FAIL %-20s %5.1fs  %s" % (name, elapsed, problem))
                print("  --- output ---")
                for line in actual:
                    print("  | " + line)
            else:
                passed += 1
                print("ok   %-20s %5.1fs" % (name, elapsed))
    finally:
        run_step("DROP KEYSPACE IF EXISTS ${KS};", keyspace, env)
        if args.actual:
            Path(args.actual).write_text("\n".join(report))
        shutil.rmtree(home)  # with the credentials file of secure mode
    print("cqlsh: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
