#!/usr/bin/env python3
"""The commands of README.md and docs/usage.md as a new user runs them (ctest readme_commands):
every command line of a ```sh block that runs rigbench runs it as a fresh clone has it (build/bin/rigbench, or a
backend's build-<name>/bin/rigbench: rigbench is not on PATH), names a subcommand that
`rigbench --help` lists, and gives only flags that subcommand's --help lists. Reads help text
only: nothing is benchmarked, written or fetched. Exit 0 clean, 1 with one line per fault."""
import argparse
import re
import shlex
import subprocess
import sys


def help_text(rigbench, *args):
    return subprocess.run([rigbench, *args, "--help"], capture_output=True, text=True, check=False).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rigbench", required=True)
    ap.add_argument("--readme", required=True, action="append", help="a markdown file (repeatable)")
    a = ap.parse_args()
    top = help_text(a.rigbench)
    subcommands = set(re.findall(r"^  ([a-z][a-z-]*) ", top.split("Subcommands:", 1)[-1], re.M))
    if not subcommands:
        print(f"readme_commands: no subcommands in `{a.rigbench} --help`")
        return 1
    helps = {}
    faults = []
    text = "\n".join(open(f, encoding="utf-8").read() for f in a.readme)
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            command = re.split(r"\s#\s|\s{2,}#", line)[0].strip()
            for part in re.split(r"&&|\|", command):
                m = re.match(r"^((?:[A-Z_]+=\S*\s+)*)(\S*rigbench)\s+(\S+)(.*)$", part.strip())
                if not m:
                    continue
                binary, sub, rest = m.group(2), m.group(3), m.group(4).split(">")[0]
                if not re.fullmatch(r"build(-[a-z]+)?/bin/rigbench", binary):
                    faults.append(f"'{line.strip()}': runs '{binary}', which a fresh clone has as build/bin/rigbench")
                if sub not in subcommands:
                    faults.append(f"'{line.strip()}': '{sub}' is not a subcommand ({', '.join(sorted(subcommands))})")
                    continue
                h = helps.setdefault(sub, help_text(a.rigbench, sub))
                for tok in shlex.split(rest):
                    flag = tok.split("=")[0]
                    if not flag.startswith("-") or flag == "-" or re.match(r"^-\d", flag):
                        continue
                    if not re.search(r"(^|[\s,])" + re.escape(flag) + r"([\s,=:]|$)", h, re.M):
                        faults.append(f"'{line.strip()}': {sub} has no flag {flag} (rigbench {sub} --help)")
    for f in faults:
        print("readme_commands:", f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
