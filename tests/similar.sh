#!/bin/sh
# similar.sh — `gpulearn similar` finds copied work: in a folder of lesson 9 submissions
# (tests/similar/: an original, a copy with every name renamed, comments changed and the
# layout redone, a copy with its functions moved, two learners who kept only the starter
# with a small change each; unrelated solutions from tests/grade/09-reduction and
# tests/grade/01-threads), the copies are the top three pairs with their exact scores
# (36 of 36 fingerprints shared, 31 of 36 twice) and the two starters share nothing once
# the lesson's starter is excluded (without the lesson they are a pair). Names and lines
# from submissions reach the terminal inert and the HTML page escaped (a name holding
# <script> and escape sequences, a line holding </pre><script>); oversized files and links
# are skipped with the reason; grade --batch --similarity adds the report and its files.
# Exit: 0 pass, 1 fail, 77 skip (no python3).
set -u
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
command -v python3 >/dev/null 2>&1 || { echo "similar: SKIP (no python3)"; exit 77; }
GPULEARN_NO_GPU=1 GPULEARN_LESSONS="$(pwd)/lessons" exec python3 - "$G" <<'EOF'
import glob, json, os, re, shutil, subprocess, sys, tempfile

G = sys.argv[1]
failures = []

def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
        if detail:
            print(str(detail)[:2000])

def run(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([G] + list(args), capture_output=True, env=e)

def inert(out):
    """Terminal text: valid UTF-8, no control character but newline, no C1 control, no
    bidirectional override. Returns the text, or None."""
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        return None
    bad = [c for c in text if (ord(c) < 32 and c != "\n") or ord(c) == 127
           or 0x80 <= ord(c) <= 0x9f or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"]
    return None if bad else text

tmp = tempfile.mkdtemp()
subs = os.path.join(tmp, "subs")
os.mkdir(subs)
for f in glob.glob("tests/similar/*.cu"):
    shutil.copy(f, subs)
unrelated = sorted(glob.glob("tests/grade/09-reduction/pass__*.cu") +
                   glob.glob("tests/grade/01-threads/pass__*.cu"))
for f in unrelated:
    shutil.copy(f, os.path.join(subs, "u_" + os.path.basename(os.path.dirname(f)) + "_" +
                                os.path.basename(f)))

# --- the copies rank first, with their scores; the starter alone scores nothing
r = run("similar", "9", subs, "--json", "--top", "1000")
check(r.returncode == 0, "similar 9 DIR --json exits 0", r.stderr)
if r.returncode != 0:
    sys.exit(1)
rep = json.loads(r.stdout)
pairs = [(p["a"], p["b"], p["shared"], round(p["score"], 4)) for p in rep["pairs"]]
check(pairs[:3] == [("original.cu", "renamed.cu", 36, 1.0),
                    ("moved.cu", "original.cu", 31, round(31 / 36, 4)),
                    ("moved.cu", "renamed.cu", 31, round(31 / 36, 4))],
      "the renamed copy (100%) and the moved copy (86%) are the top three pairs", pairs[:5])
copies = {"original.cu", "renamed.cu", "moved.cu"}
check(all(p[3] < 0.5 for p in pairs[3:] if copies & set(p[:2])),
      "a copy and an unrelated solution score under 50%", pairs[3:8])
check(not [p for p in pairs if set(p[:2]) == {"starter_a.cu", "starter_b.cu"}],
      "two submissions sharing only the starter score 0 (no pair)")
check(all(p["regions"] for p in rep["pairs"]), "every pair shown has its matching regions")
orig = rep["pairs"][0]
# (line 18's "__shared__ int sums[8]; int lane = threadIdx.x" is the starter's code)
check(orig["regions"][-1]["a_lines"] == [19, 27] and orig["regions"][-1]["b_lines"] == [9, 16],
      "the copied kernel's region: original.cu lines 19-27 = renamed.cu lines 9-16",
      orig["regions"])

r = run("similar", subs, "--json")
rep = json.loads(r.stdout)
sp = [p for p in rep["pairs"] if {p["a"], p["b"]} == {"starter_a.cu", "starter_b.cu"}]
check(sp and sp[0]["score"] > 0.7, "without the lesson the two starters are a pair (%s)" %
      (sp and round(sp[0]["score"], 2)))

r = run("similar", "9", subs, "--top", "3")
text = r.stdout.decode()
rows = re.findall(r"^\s+\d+\s+(\d+)%\s+(\d+)\s+\d+\s+(\S+)\s+(\S+)$", text, re.M)
check(rows == [("100", "36", "original.cu", "renamed.cu"), ("86", "31", "moved.cu", "original.cu"),
               ("86", "31", "moved.cu", "renamed.cu")], "the text table ranks the same", text[:800])
check(max(len(l) for l in text.splitlines()) <= 80, "the text report fits 80 columns")
check("\x1b" not in text, "no colour when stdout is not a terminal")
check(re.search(r"^\s+19     int lane = threadIdx.x % w~ \|\s+9   int l = threadIdx.x % warpSi~$",
                text, re.M) is not None, "the regions are side by side, line by line")
r = run("similar", "9", subs, "--min-score", "90")
check(len(re.findall(r"^\s+\d+\s+\d+%", r.stdout.decode(), re.M)) == 1, "--min-score 90 shows one pair")

# --- hostile names and contents: inert in the terminal, escaped in HTML, valid JSON
hostile = b"<script>alert(1)<&amp;>\x1b]0;pwned\x07 \xe2\x80\xae \xff.cu"
src = open("tests/similar/renamed.cu", "rb").read().replace(
    b"if (l == 0) partials[w] = x;", b'if (l == 0) partials[w] = x; // \x1b[2J</pre><script>x</script>\xc2\x9b')
with open(os.path.join(subs.encode(), hostile), "wb") as f:
    f.write(src)
big = os.path.join(subs, "big.cu")
with open(big, "w") as f:
    f.write("int x;\n" * 200000)
os.symlink("/etc/passwd", os.path.join(subs, "link.cu"))
html = os.path.join(tmp, "report.html")
r = run("similar", "9", subs, "--html", html)
text = inert(r.stdout + r.stderr)
check(r.returncode == 0 and text is not None, "hostile names and lines reach the terminal inert",
      (r.stdout + r.stderr)[:600])
check(text is not None and re.search(r"^skipped big\.cu:\n  larger than 1024 KiB", text, re.M) is not None,
      "a file over 1 MiB is skipped with the reason")
check(text is not None and re.search(r"^skipped link\.cu:\n  is a symbolic link", text, re.M) is not None,
      "a symbolic link is skipped, never followed")
page = open(html, "rb").read().decode("utf-8")
check("&lt;script&gt;alert(1)&lt;&amp;amp;&gt;" in page and "&lt;/pre&gt;&lt;script&gt;x" in page,
      "the HTML page escapes names and lines")
check(page.count("<script") == 0 and "\x1b" not in page and "\u202e" not in page,
      "no markup, escape or bidirectional override from a submission in the page")
check(page.count("</pre>") == page.count("<pre>"), "every <pre> the page opens it closes")
r = run("similar", "9", subs, "--json")
try:
    js = json.loads(r.stdout.decode("utf-8"))
    check(any(s["file"].startswith("<script>") for s in js["submissions"]), "--json stays valid JSON")
except Exception as e:
    check(False, "--json stays valid JSON", e)

# --- usage and input errors
r = run("similar", os.path.join(tmp, "none"))
check(r.returncode == 2 and b"cannot read the folder" in r.stderr, "a missing folder: exit 2")
empty = os.path.join(tmp, "empty")
os.mkdir(empty)
r = run("similar", empty)
check(r.returncode == 2 and b"no .cu files" in r.stderr, "a folder without .cu files: exit 2")
r = run("similar", subs, "--top", "0")
check(r.returncode == 2, "--top 0: exit 2")
r = run("similar", "0", subs)
check(r.returncode == 2 and b"no exercise" in r.stderr, "a lesson without an exercise: exit 2")

# --- grade --batch --similarity adds the report beside the grades
batch = os.path.join(tmp, "batch")
os.mkdir(batch)
for f in ["pass__grid_stride.cu", "pass__early_return.cu"]:
    shutil.copy("tests/grade/01-threads/" + f, batch)
shutil.copy("tests/grade/01-threads/pass__grid_stride.cu", os.path.join(batch, "z_copy.cu"))
r = run("grade", "1", "--batch", batch, "--seed", "1", "--jobs", "1", "--similarity",
        "--unsafe-no-sandbox", "--out", os.path.join(tmp, "g"))
out = r.stdout.decode()
check(r.returncode in (0, 1) and "similar submissions in" in out, "grade --batch --similarity prints the report",
      out[-1500:] + r.stderr.decode()[-500:])
check(re.search(r"^\s+1\s+100%\s+\d+\s+\d+\s+pass__grid_stride\.cu\s+z_copy\.cu$", out, re.M) is not None,
      "the batch's copy ranks first")
check(os.path.exists(os.path.join(tmp, "g-similar.html")) and
      os.path.exists(os.path.join(tmp, "g-similar.json")) and os.path.exists(os.path.join(tmp, "g.csv")),
      "the batch writes g.csv, g-similar.html and g-similar.json")
r = run("grade", "1", "tests/grade/01-threads/pass__grid_stride.cu", "--similarity")
check(r.returncode == 2 and b"--similarity goes with --batch" in r.stderr, "--similarity without --batch: exit 2")

shutil.rmtree(tmp)
print("similar: %d failure(s)" % len(failures) if failures else "similar: all passed")
sys.exit(1 if failures else 0)
EOF
