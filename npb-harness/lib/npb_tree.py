"""An NPB 3.4 MPI source tree: check it, configure it for one MPI, build.

The user's own config/make.def is kept: `MakeDef` moves it to a backup file
next to it, writes the harness's version, and puts the user's back when the
`with` block ends, whatever the exit path. The backup lives in the tree (not
in memory) so that a run killed with SIGKILL leaves it behind, and the next
run restores it before doing anything else.
"""

import os
import re
import shutil

from npb_proc import run_logged

BACKUP_NAME = "make.def.npb-harness-backup"
MARK = "# Written by rdmpi's npb-harness; the user's make.def is restored " \
       "after the run."


class TreeError(Exception):
    """The directory is not a usable NPB 3.4 MPI tree."""


def check_tree(npb_dir):
    """Raise TreeError naming the first missing piece of an NPB tree."""
    if not os.path.isdir(npb_dir):
        raise TreeError("%s: no such directory" % npb_dir)
    need = [("config/make.def.template", os.path.isfile),
            ("sys", os.path.isdir)]
    for rel, test in need:
        if not test(os.path.join(npb_dir, rel)):
            raise TreeError("not an NPB 3.4 MPI tree: %s missing (in %s)"
                            % (rel, npb_dir))
    if not any(os.path.isfile(os.path.join(npb_dir, m))
               for m in ("Makefile", "makefile", "GNUmakefile")):
        raise TreeError("not an NPB 3.4 MPI tree: Makefile missing (in %s)"
                        % npb_dir)
    if not any(os.path.isfile(os.path.join(npb_dir, "config", s))
               for s in ("suite.def", "suite.def.template")):
        raise TreeError("not an NPB 3.4 MPI tree: config/suite.def missing "
                        "(in %s)" % npb_dir)


def bench_dir(npb_dir, bench):
    return os.path.join(npb_dir, bench.upper())


def language(npb_dir, bench):
    """'fortran' when the benchmark's directory has Fortran sources (BT, CG,
    EP, FT, LU, MG, SP in NPB), else 'c' (IS, DT)."""
    try:
        names = os.listdir(bench_dir(npb_dir, bench))
    except OSError:
        names = []
    fortran = any(re.search(r"\.(f|f90|F|F90)$", n) for n in names)
    return "fortran" if fortran else "c"


def gnu_fortran_major(version_text):
    """Major version of GNU Fortran from `<fc> --version`, or None."""
    m = re.search(r"GNU Fortran[^\n]*?\s(\d+)\.\d+", version_text)
    return int(m.group(1)) if m else None


def make_def_text(template, tools, fflags, cflags):
    """The template with the compiler variables set for `tools` (a dict with
    mpicc, mpifort); every other line (RAND, CC, CONVERTFLAG...) is kept."""
    values = {
        "MPIFC": tools["mpifort"], "FLINK": tools["mpifort"],
        "FMPI_LIB": "", "FMPI_INC": "",
        "FFLAGS": fflags, "FLINKFLAGS": fflags,
        "MPICC": tools["mpicc"], "CLINK": tools["mpicc"],
        "CMPI_LIB": "", "CMPI_INC": "",
        "CFLAGS": cflags, "CLINKFLAGS": cflags,
        "BINDIR": "../bin",
    }
    out, seen = [MARK], set()
    for line in template.splitlines():
        m = re.match(r"^([A-Z_]+)\s*=", line)
        if m and m.group(1) in values:
            name = m.group(1)
            if name not in seen:
                out.append("%s = %s" % (name, values[name]))
                seen.add(name)
            continue
        if re.match(r"^include\s+\.\./config/make\.dummy", line):
            line = "# " + line  # the MPI dummy library is never wanted here
        out.append(line)
    for name, value in values.items():
        if name not in seen:
            out.append("%s = %s" % (name, value))
    return "\n".join(out) + "\n"


class MakeDef:
    """`with MakeDef(dir, text):` config/make.def is `text` inside the
    block; the user's file (or its absence) is back afterwards."""

    def __init__(self, npb_dir, text):
        self.path = os.path.join(npb_dir, "config", "make.def")
        self.backup = os.path.join(npb_dir, "config", BACKUP_NAME)
        self.none_marker = self.backup + ".none"
        self.text = text

    @staticmethod
    def recover(npb_dir):
        """Undo a run that died before restoring: returns a message or
        None."""
        md = MakeDef(npb_dir, "")
        if os.path.exists(md.backup) or os.path.exists(md.none_marker):
            md.restore()
            return "restored config/make.def left by an interrupted run"
        return None

    def __enter__(self):
        if os.path.exists(self.path):
            os.replace(self.path, self.backup)
        else:
            open(self.none_marker, "w").close()
        with open(self.path, "w") as f:
            f.write(self.text)
        return self

    def restore(self):
        if os.path.exists(self.backup):
            os.replace(self.backup, self.path)
        elif os.path.exists(self.none_marker):
            if os.path.exists(self.path):
                os.remove(self.path)
            os.remove(self.none_marker)

    def __exit__(self, *exc):
        self.restore()
        return False


def clean_objects(npb_dir, benches):
    """Remove objects, Fortran modules and npbparams.h of the benchmarks
    and of common/: NPB's makefiles do not depend on make.def, so objects
    compiled for another MPI would otherwise be linked again."""
    for d in ["common"] + [b.upper() for b in benches]:
        path = os.path.join(npb_dir, d)
        if not os.path.isdir(path):
            continue
        for name in os.listdir(path):
            if re.search(r"\.(o|mod)$", name) or name == "npbparams.h":
                os.remove(os.path.join(path, name))


def binary(npb_dir, bench, cls):
    return os.path.join(npb_dir, "bin", "%s.%s.x" % (bench, cls))


def build(npb_dir, bench, cls, log_path, env, timeout):
    """`make <bench> CLASS=<cls>`; returns None or the reason it failed."""
    exe = binary(npb_dir, bench, cls)
    if os.path.exists(exe):
        os.remove(exe)
    os.makedirs(os.path.join(npb_dir, "bin"), exist_ok=True)
    res = run_logged(["make", bench, "CLASS=" + cls], npb_dir, log_path,
                     env, timeout)
    if res.timed_out:
        return "build timed out after %ds" % timeout
    if res.rc != 0:
        return "build failed (make exit %d)" % res.rc
    if not os.path.isfile(exe):
        return "build produced no %s" % os.path.relpath(exe, npb_dir)
    return None


def copy_tree(src, dst):
    """A fresh copy of the tree for another MPI: no objects, binaries or
    make.def backups, and not `dst` itself when it lies inside `src`."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    skip = shutil.ignore_patterns("*.o", "*.mod", "*.x", BACKUP_NAME + "*")
    real_dst = os.path.realpath(dst)

    def ignore(directory, names):
        out = set(skip(directory, names))
        for n in names:
            p = os.path.realpath(os.path.join(directory, n))
            if p == real_dst or real_dst.startswith(p + os.sep):
                out.add(n)  # the output directory inside the tree
        return out

    shutil.copytree(src, dst, symlinks=True, ignore=ignore)
