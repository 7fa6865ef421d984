#!/usr/bin/env python3
"""The per-case half of recover-comparison.sh: runs SQLite's `.recover` and `objectgraph recover`
on copies of every case of a corruption corpus and prints the rows each got back as a Markdown table.

    recover-comparison.py --shell SQLITE3 --objectgraph BINARY [--timeout SECONDS] CORPUS_DIR

The shell must have the sqlite_dbpage virtual table (recover-comparison.sh builds one). Exit status
1 if ObjectGraph got fewer rows than `.recover` on some case.
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request

# The table `.recover` puts rows in when it cannot tell which table they belong to.
LOST_AND_FOUND = "lost_and_found"


def copy_case(source, folder):
    """Copies a case's file with its -wal and -shm, which hold part of its state, into folder."""
    target = os.path.join(folder, os.path.basename(source))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, target + suffix)
    return target


def count_rows(path, tables):
    """Rows per table of the database at path; a table that is missing or unreadable counts None."""
    counts = {table: None for table in tables}
    if not os.path.exists(path):
        return counts
    connection = sqlite3.connect("file:" + urllib.request.pathname2url(os.path.abspath(path)) + "?mode=ro", uri=True)
    try:
        for table in tables:
            try:
                quoted = '"' + table.replace('"', '""') + '"'
                counts[table] = connection.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]
            except sqlite3.Error:
                pass
    finally:
        connection.close()
    return counts


def run(arguments, timeout, stdin=None, stdout=None):
    """Runs a tool; (True, "") on success, else (False, why) in one short line."""
    try:
        result = subprocess.run(arguments, stdin=stdin, stdout=stdout if stdout else subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s"
    except OSError as error:
        return False, error.strerror or str(error)
    errors = [line.strip() for line in result.stderr.decode(errors="replace").splitlines() if line.strip()]
    if result.returncode != 0:
        reason = f"exit {result.returncode}" if result.returncode > 0 else f"signal {-result.returncode}"
        # The line naming the error, not a usage hint printed after it.
        named = [line for line in errors if "rror" in line] or errors[-1:]
        return False, reason + (": " + named[0][:160] if named else "")
    return True, ""


def sqlite_recover(shell, case_file, work, tables, timeout):
    """`.recover` of a copy into a new database: (rows per table, lost_and_found rows, note)."""
    copy = copy_case(case_file, os.path.join(work, "recover-input"))
    script = os.path.join(work, "recovered.sql")
    recovered = os.path.join(work, "recovered.sqlite")
    with open(script, "wb") as output:
        ok, why = run([shell, copy, ".recover"], timeout, stdout=output)
    if not ok:
        return {table: 0 for table in tables}, 0, ".recover failed (" + why + ")"
    note = ""
    with open(script, "rb") as sql:
        # The shell goes on after a failed statement, as a user replaying the script would.
        loaded, why = run([shell, recovered], timeout, stdin=sql)
    if not loaded:
        note = "loading .recover's SQL: " + why
    counts = count_rows(recovered, tables + [LOST_AND_FOUND])
    lost = counts.pop(LOST_AND_FOUND) or 0
    return {table: count or 0 for table, count in counts.items()}, lost, note


def objectgraph_recover(binary, case_file, work, tables, model, timeout):
    """`objectgraph recover` of a copy into a new store: (rows per table, note). `model`, the
    corpus's model file if it has one, is what a user would give for a file whose own model is
    unreadable (ObjectGraph uses it only then)."""
    copy = copy_case(case_file, os.path.join(work, "objectgraph-input"))
    recovered = os.path.join(work, "objectgraph.sqlite")
    ok, why = run([binary, "recover", copy, "--into", recovered] + (["--model", model] if model else []), timeout)
    if not ok:
        return {table: 0 for table in tables}, "objectgraph failed (" + why + ")"
    counts = count_rows(recovered, tables)
    missing = [table for table, count in counts.items() if count is None]
    note = "objectgraph's store lacks " + ", ".join(missing) if missing else ""
    return {table: count or 0 for table, count in counts.items()}, note


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shell", required=True)
    parser.add_argument("--objectgraph", required=True)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("corpus")
    options = parser.parse_args()

    with open(os.path.join(options.corpus, "manifest.json")) as file:
        manifest = json.load(file)
    tables = manifest["tables"]
    model = os.path.join(options.corpus, manifest["model"]) if manifest.get("model") else None
    original = sum(manifest["original"].get(table, 0) for table in tables)

    print(f"Corpus: {options.corpus} ({len(manifest['cases'])} cases; tables {', '.join(tables)}; "
          f"{original} rows in the original store)")
    print()
    print("| case | kind | original rows | provably intact | `.recover` (+lost_and_found) | ObjectGraph | notes |")
    print("|---|---|---:|---:|---:|---:|---|")
    totals = {"original": 0, "intact": 0, "recover": 0, "lost": 0, "objectgraph": 0}
    fewer = []
    for case in manifest["cases"]:
        name = case["name"]
        print(f"recover-comparison: {name}", file=sys.stderr)
        case_file = os.path.join(options.corpus, case["file"])
        intact = sum(case.get("intact", {}).get(table, 0) for table in tables)
        notes = []
        # A case made from another undamaged store than the corpus's (one with commits in its
        # -wal, say) names it; its rows are counted there.
        case_original = original
        if case.get("original"):
            # On a copy too: even a read-only open of a store with a -wal may write its -shm.
            with tempfile.TemporaryDirectory(prefix="recover-comparison-") as scratch:
                counts = count_rows(copy_case(os.path.join(options.corpus, case["original"]), scratch), tables)
            if None in counts.values():
                notes.append(f"cannot count the rows of {case['original']}")
            else:
                case_original = sum(counts.values())
        # Every case in a folder of its own, removed afterwards: the corpus itself is never opened.
        work = tempfile.mkdtemp(prefix="recover-comparison-")
        try:
            if not os.path.exists(case_file):
                notes.append(f"{case['file']} is missing")
            for folder in ("recover-input", "objectgraph-input"):
                os.mkdir(os.path.join(work, folder))
            by_recover, lost, note = sqlite_recover(options.shell, case_file, work, tables, options.timeout)
            notes += [note] if note else []
            by_objectgraph, note = objectgraph_recover(options.objectgraph, case_file, work, tables, model, options.timeout)
            notes += [note] if note else []
        finally:
            shutil.rmtree(work, ignore_errors=True)
        recovered = sum(by_recover.values())
        objectgraph = sum(by_objectgraph.values())
        # lost_and_found rows are not in their tables, so the comparison is of the tables alone.
        short = [f"{table} {by_objectgraph[table]} < {by_recover[table]}" for table in tables
                 if by_objectgraph[table] < by_recover[table]]
        if objectgraph < recovered:
            fewer.append(name)
        if short:
            notes.append("ObjectGraph fewer: " + ", ".join(short))
        totals["original"] += case_original
        totals["intact"] += intact
        totals["recover"] += recovered
        totals["lost"] += lost
        totals["objectgraph"] += objectgraph
        lost_text = f" (+{lost})" if lost else ""
        cell = "; ".join(notes).replace("|", "\\|")
        print(f"| {name} | {case.get('kind', '')} | {case_original} | {intact} | {recovered}{lost_text} | {objectgraph} | {cell} |",
              flush=True)
    cases = len(manifest["cases"])
    lost_text = f" (+{totals['lost']})" if totals["lost"] else ""
    print(f"| **total** | | {totals['original']} | {totals['intact']} | {totals['recover']}{lost_text} | "
          f"{totals['objectgraph']} | |")
    print()
    print(f"ObjectGraph got fewer rows than `.recover` in {len(fewer)} of {cases} cases"
          + (": " + ", ".join(fewer) if fewer else "") + ".")
    return 1 if fewer else 0


if __name__ == "__main__":
    sys.exit(main())
