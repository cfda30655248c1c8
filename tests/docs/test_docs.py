"""The documents as a newcomer meets them (issue 42): every link inside
the repository leads somewhere, nothing points at files a clone does not
have, the front pages stay short enough to read in ten minutes, and the
committed results stay small enough to clone."""
import os
import re
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LINK = re.compile(r"\]\(([^)\s]+)\)")
# Where the project's design notes and the paper lived before they moved
# into docs/design: a clone has neither.
OUTSIDE = re.compile(r"\.\./shared/|shared/(docs|seeds)/")
WORD_LIMITS = {"README.md": 1200, "docs/results.md": 2500}
RESULTS_MAX_FILES = 150
RESULTS_MAX_BYTES = 8 << 20


def tracked(suffix=""):
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\0") if p and p.endswith(suffix)]


def slug(heading):
    """The anchor a heading gets: lower case, punctuation dropped, spaces
    to hyphens ("## The paper's layout" -> "the-papers-layout")."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path):
    """The anchors of path's headings; a '#' line inside a ``` block is a
    shell comment, not a heading."""
    found, fenced = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"#+\s", line):
                found.add(slug(line.lstrip("#")))
    return found


def broken_links(md, text):
    """md's relative links whose file is missing, or whose #anchor names no
    heading of the .md it points at."""
    broken = []
    for link in LINK.findall(text):
        if re.match(r"[a-z]+:", link):  # http:, https:, mailto:
            continue
        target, _, anchor = link.partition("#")
        path = os.path.normpath(os.path.join(ROOT, os.path.dirname(md), target)) \
            if target else os.path.join(ROOT, md)
        if not os.path.exists(path):
            broken.append(link)
        elif anchor and path.endswith(".md") and anchor not in anchors(path):
            broken.append(link)
    return broken


class DocsTest(unittest.TestCase):
    def test_the_checker_sees_a_broken_link(self):
        self.assertEqual(broken_links("docs/results.md", "[a](results/no-such.md) "
                                      "[b](results/method.md#no-such-heading) "
                                      "[c](results/method.md#raw-runs-kept-in-git-history)"),
                         ["results/no-such.md", "results/method.md#no-such-heading"])
        # A page's shell block comments ("# then, on the packed directory
        # ...") are no headings: no link may land on one.
        page = os.path.join(ROOT, "docs", "results", "final-1region-12M", "README.md")
        self.assertIn("the-load-curve", anchors(page))
        self.assertFalse([a for a in anchors(page) if a.startswith("then-on-the-packed")])

    def test_every_link_in_the_repository_leads_somewhere(self):
        broken = {}
        for md in tracked(".md"):
            with open(os.path.join(ROOT, md), encoding="utf-8") as f:
                bad = broken_links(md, f.read())
            if bad:
                broken[md] = bad
        self.assertEqual(broken, {})

    def test_nothing_points_outside_the_repository(self):
        outside = {}
        for path in tracked():
            if path.endswith((".xz", ".png")) or not os.path.isfile(os.path.join(ROOT, path)):
                continue
            with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
                hits = [n for n, line in enumerate(f, 1) if OUTSIDE.search(line)]
            if hits and path != os.path.relpath(__file__, ROOT):
                outside[path] = hits
        self.assertEqual(outside, {})

    def test_front_pages_stay_short(self):
        for path, limit in WORD_LIMITS.items():
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                words = len(f.read().split())
            self.assertLessEqual(words, limit, path)

    def test_committed_results_stay_small(self):
        files = [p for p in tracked() if p.startswith("docs/results/")]
        size = sum(os.path.getsize(os.path.join(ROOT, p)) for p in files)
        self.assertLess(len(files), RESULTS_MAX_FILES)
        self.assertLess(size, RESULTS_MAX_BYTES, "%.2f MiB" % (size / (1 << 20)))


if __name__ == "__main__":
    unittest.main()
