#!/bin/sh
# report_formats.sh — the grader's reports stay valid and its terminal output stays inert
# whatever a submission is called or holds. A batch of hostile
# names (newlines that would forge a PASS line, escape sequences that retitle or clear
# the terminal, C1 controls, bidirectional overrides, bytes that are not UTF-8, XML and
# CSV specials) and a source whose compile error quotes escape sequences and invalid
# bytes is graded, alone (text, json, junit) and as a batch (summary, CSV, JSON):
#   - JSON parses with Python's json from strict UTF-8 (invalid bytes became U+FFFD);
#   - JUnit parses with Python's XML parser (expat);
#   - the CSV parses with Python's csv, one row per submission;
#   - text meant for a terminal holds no control character but newline and tab, no
#     C1 control, no bidirectional override and only valid UTF-8, and no line a
#     submission forged (every line of the batch summary is one the grader wrote).
# Exit: 0 pass, 1 fail, 77 skip (no python3).
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
command -v python3 >/dev/null 2>&1 || { echo "report_formats: SKIP (no python3)"; exit 77; }
GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$(pwd)/lessons" exec python3 - "$G" <<'EOF'
import csv, io, json, os, re, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

G = sys.argv[1]
ok_src = open("lessons/01-threads/solution.cu", "rb").read()
# a compile error on a line that holds escape sequences, a C1 control and invalid bytes
bad_src = (b'extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)\n'
           b'{ int i = \x1b]0;pwned\x07 \x1b[2J\x1b[H \xc2\x9b31m \xff\xfe "\xe2\x80\xae"; }\n')
names = [b"evil\n  PASS     compiles\nPASSED: 8 of 8 checks passed\nx.cu",
         b"title\x1b]0;pwned\x07.cu", b"clear\x1b[2J\x1b[H.cu", b"c1 \xc2\x9b31m.cu",
         b"bad utf8 \xff\xfe.cu", b"rtl \xe2\x80\xaeuc.exe.cu", b'quote " <tag> & amp.cu',
         b"=HYPERLINK(1).cu", b"tab\there.cu", b"plain.cu"]
failures = []

def fail(what, detail=b""):
    failures.append(what)
    print("FAIL", what, repr(detail[:300]))

def inert(what, out):
    """Terminal text: valid UTF-8, no control but \\n \\t, no C1, no bidi override."""
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        return fail(what + ": not valid UTF-8", out[max(0, e.start - 40):e.start + 40])
    bad = [c for c in text if (ord(c) < 32 and c not in "\n\t") or ord(c) == 127
           or 0x80 <= ord(c) <= 0x9f or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"]
    if bad:
        fail(what + ": control characters reach the terminal: %r" % sorted(set(bad)), out)
    return text

tmp = tempfile.mkdtemp()
subs = os.path.join(tmp, "subs").encode()
os.mkdir(subs)
for i, nm in enumerate(names):
    with open(os.path.join(subs, nm), "wb") as f:
        f.write(bad_src if i % 2 else ok_src)

for nm in names:
    path = os.path.join(subs, nm)
    r = subprocess.run([G, "grade", "1", path, "--seed", "1"], capture_output=True)
    text = inert("text report of %r" % nm, r.stdout + r.stderr)
    if text is not None and re.search(r"^PASSED", text, re.M) and r.returncode != 0:
        fail("a forged PASSED line in the text report of %r" % nm, r.stdout)
    r = subprocess.run([G, "grade", "1", path, "--seed", "1", "--format", "json"],
                       capture_output=True)
    try:
        js = json.loads(r.stdout.decode("utf-8"))
        if (js["passed"] is True) != (r.returncode == 0):
            fail("the JSON verdict of %r is not the exit code's" % nm)
    except (UnicodeDecodeError, ValueError) as e:
        fail("the JSON report of %r does not parse: %s" % (nm, e), r.stdout)
    r = subprocess.run([G, "grade", "1", path, "--seed", "1", "--format", "junit"],
                       capture_output=True)
    try:
        suite = ET.fromstring(r.stdout).find("testsuite")
        if suite is None or len(suite.findall("testcase")) != 8:
            fail("the JUnit report of %r has not 8 test cases" % nm, r.stdout)
    except ET.ParseError as e:
        fail("the JUnit report of %r is not well-formed XML: %s" % (nm, e), r.stdout)

out = os.path.join(tmp, "grades").encode()
r = subprocess.run([G, "grade", "1", "--batch", subs, "--out", out, "--seed", "1"],
                   capture_output=True)
text = inert("the batch summary", r.stdout + r.stderr)
if text is not None:
    lines = r.stdout.decode("utf-8", "replace").splitlines()
    # the header, one line per submission, the tally and "wrote ..."
    if len(lines) != len(names) + 3:
        fail("the batch summary has %d lines for %d submissions" % (len(lines), len(names)),
             r.stdout)
    if any(l.startswith(("  PASS", "PASSED")) for l in lines):
        fail("a forged line in the batch summary", r.stdout)
try:
    js = json.loads(open(out + b".json", "rb").read().decode("utf-8"))
    if len(js["submissions"]) != len(names):
        fail("the batch JSON lists %d of %d submissions" % (len(js["submissions"]), len(names)))
    if sum(s["verdict"] == "pass" for s in js["submissions"]) != len(names) // 2:
        fail("the batch JSON's verdicts are not the submissions'")
except (OSError, UnicodeDecodeError, ValueError) as e:
    fail("the batch JSON does not parse: %s" % e)
try:
    rows = list(csv.reader(io.StringIO(open(out + b".csv", "rb").read().decode("latin-1"))))
    if len(rows) != len(names) + 1 or len({len(x) for x in rows}) != 1:
        fail("the batch CSV has %d rows for %d submissions" % (len(rows) - 1, len(names)))
except (OSError, csv.Error) as e:
    fail("the batch CSV does not parse: %s" % e)
subprocess.run(["rm", "-rf", tmp])
print("report_formats: %d hostile names and sources, text, JSON, JUnit, batch: %d problems"
      % (len(names), len(failures)))
sys.exit(1 if failures else 0)
EOF
