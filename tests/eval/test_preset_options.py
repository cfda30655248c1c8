"""The measured ranged system is the preset users are told to take.

scripts/bench/systems.py takes the ranged layout's measured configuration
("vlsm-ranged-rs32-deep") from scripts/bench/presets/ranged.options, what
tools/vlsm_preset_options prints for VlsmOptions::Ranged(): the
configuration is written once, in C++. This checks both links: the file is
what the tool prints now (a preset changed in C++ without the file fails
here), and what ycsb_vlsm opens for the system (mode=describe) is the
preset on RocksDB's defaults, option by option. The only differences
allowed are the harness's own choices for every system, each with its
reason below; anything else fails, naming the option and both values.
Column-family options only: the DB-wide options the harness sets for every
system (background jobs, the delayed write rate under a limiter) and the
block cache (RocksDB does not write its size into an options string) are
the harness's, not the preset's."""
import json
import os
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("VLSM_BUILD_DIR") or os.path.join(ROOT, "build")
SYSTEMS = os.path.join(ROOT, "scripts", "bench", "systems.py")
MEASURED = "vlsm-ranged-rs32-deep"
PRESET_FILE = os.path.join(ROOT, "scripts", "bench", "presets", "ranged.options")

# Options every system of the evaluation sets the same way, which the
# preset leaves to the user.
HARNESS_CHOICES = {
    # Every system stores the generated values uncompressed (the figures
    # are bytes moved, not a codec's ratio); the preset keeps RocksDB's.
    "compression": "kNoCompression",
    # The evaluation's trees have five levels; ConfigureVlsm keeps the
    # caller's num_levels (RocksDB's 7 here).
    "num_levels": "5",
}
# One multiplier per level: compared over the levels both have.
PER_LEVEL = "max_bytes_for_level_multiplier_additional"


def options_of(text):
    """{name: value} of an options string with one "name=value" a line."""
    out = {}
    for line in text.strip().splitlines():
        name, _, value = line.partition("=")
        out[name] = value.rstrip(";")
    return out


class PresetOptionsTest(unittest.TestCase):
    def run_tool(self, *cmd):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, (cmd, r.stderr))
        return r.stdout

    def system_props(self):
        return self.run_tool(sys.executable, SYSTEMS, "ycsb", MEASURED,
                             "max_background_jobs=2", "max_subcompactions=1",
                             "bloom_bits=0").split()

    def differences(self, props):
        """{option: (the system's value, the preset's)} beyond the
        harness's choices."""
        described = json.loads(self.run_tool(
            os.path.join(BUILD, "ycsb_vlsm"), "load", *props, "-p", "mode=describe"))
        measured = options_of(described["cf_options"])
        preset = options_of(self.run_tool(os.path.join(BUILD, "vlsm_preset_options")))
        self.assertEqual(set(measured), set(preset), "the same options, named alike")
        differ = {}
        for name in sorted(preset):
            if name in HARNESS_CHOICES:
                self.assertEqual(measured[name], HARNESS_CHOICES[name], name)
            elif name == PER_LEVEL:
                m, p = measured[name].split(":"), preset[name].split(":")
                if m[:len(p)] != p[:len(m)]:
                    differ[name] = (measured[name], preset[name])
            elif measured[name] != preset[name]:
                differ[name] = (measured[name], preset[name])
        return differ

    def test_the_preset_file_is_what_the_preset_sets(self):
        # As options, not text: the tool prints them in the order of
        # RocksDB's option table, which nothing promises. Compression aside:
        # RocksDB's default depends on the codecs the library was built with,
        # and every system sets its own (HARNESS_CHOICES).
        with open(PRESET_FILE) as f:
            committed = options_of(f.read())
        now = options_of(self.run_tool(os.path.join(BUILD, "vlsm_preset_options"),
                                       "--preset=ranged"))
        for opts in (committed, now):
            opts.pop("compression", None)
        self.assertEqual(committed, now,
                         "rewrite %s with vlsm_preset_options --preset=ranged" % PRESET_FILE)

    def test_the_measured_ranged_system_opens_with_the_preset(self):
        self.assertEqual(self.differences(self.system_props()), {},
                         "(systems.py's %s, VlsmOptions::Ranged())" % MEASURED)

    def test_a_drift_is_seen(self):
        # The comparison can fail: the system with its stop trigger one
        # lower differs from the preset there, and only there.
        props = [p.replace("level0_stop_writes_trigger=72", "level0_stop_writes_trigger=71")
                 for p in self.system_props()]
        self.assertEqual(self.differences(props), {"level0_stop_writes_trigger": ("71", "72")})

if __name__ == "__main__":
    unittest.main()
