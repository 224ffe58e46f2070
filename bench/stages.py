#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the series as a chain of git commits, one per patch of
bench/series-stages, on top of the base commit of the series tree.

    stages.py TOP SERIES_GIT BRANCH

Nothing is checked out: every tree is assembled in a private index (the
base's tree, the owned paths removed, the project's files of the patches
so far, their glue patches applied with `git apply --cached`), so the
series tree's working copy and its build stay as they are.  Each patch's
Makefiles, Kconfig files, selftests Makefile and documentation index are
cut to the files it has, and each directory with files still to come gets
a stubs.c made of their stand-ins (patches/stubs/<dir>/<file>.c).  The
last commit must equal the tree that `make check` builds: the caller
compares it.  Prints one commit id per patch.
"""
import os
import re
import subprocess
import sys
import tempfile
import textwrap

TOP, GIT, BRANCH = sys.argv[1:4]
OWNED = os.environ['OWNED_PATHS'].split()
SELFTESTS = 'tools/testing/selftests/perf_events'
STUBS = os.path.join(TOP, 'patches', 'stubs')
AUTHOR = ('perf clean-room', 'perf@localhost')


def die(msg):
    sys.exit('[bench] error: ' + msg)


def git(*args, stdin=None, env=None):
    res = subprocess.run(('git', '-C', GIT) + args, input=stdin,
                         capture_output=True, text=True, env=env)
    if res.returncode:
        die('git %s: %s' % (' '.join(args[:2]), res.stderr.strip()))
    return res.stdout


def read_stages():
    stages, cur = [], None
    with open(os.path.join(TOP, 'bench', 'series-stages')) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            word, _, rest = line.partition(' ')
            if word == 'patch':
                cur = {'subject': rest, 'add': [], 'glue': [], 'remove': []}
                stages.append(cur)
            elif word in ('add', 'glue', 'remove') and cur:
                cur[word] += rest.split()
            else:
                die('series-stages: cannot read "%s"' % line)
    return stages


def project_files():
    out = subprocess.run(['git', '-C', TOP, 'ls-files', '--'] + OWNED,
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def assign(stages, files):
    """The stage index of every project file."""
    owner = {}
    for i, st in enumerate(stages):
        for path in st['add']:
            hits = [f for f in files if f == path or
                    f.startswith(path.rstrip('/') + '/')]
            if not hits:
                die('series-stages: %s matches no file' % path)
            for f in hits:
                if f in owner and f == path:
                    die('series-stages: %s added twice' % f)
                owner.setdefault(f, i)
    missing = [f for f in files if f not in owner]
    if missing:
        die('series-stages: in no patch: ' + ' '.join(missing))
    return owner


# --- the files cut to what a patch has --------------------------------

def logical_lines(text):
    """Makefile lines with their backslash continuations."""
    out, cur = [], []
    for line in text.split('\n'):
        cur.append(line)
        if not line.endswith('\\'):
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def rewrap(phys, keep, is_token):
    """A Makefile assignment without the tokens keep() refuses."""
    words = ' '.join(p.rstrip('\\').strip() for p in phys).split()
    op = next((i for i, w in enumerate(words) if w in (':=', '+=', '=')),
              None)
    if op is None:
        return phys
    toks = words[op + 1:]
    kept = [w for w in toks if not is_token(w) or keep(w)]
    if kept == toks:
        return phys
    if not any(is_token(w) for w in kept):
        return []
    head = ' '.join(words[:op + 1]) + ' '
    indent = re.match(r'\s*', phys[1]).group(0) if len(phys) > 1 else '\t'
    lines, cur = [], head
    for w in kept:
        width = len(cur.expandtabs()) + len(w)
        if cur.strip() and cur not in (head, indent) and width > 76:
            lines.append(cur.rstrip() + ' \\')
            cur = indent
        cur += w + ' '
    lines.append(cur.rstrip())
    return lines


def cut_kbuild(path, text, present):
    d = os.path.dirname(path)
    # composite objects (power-y := amd_power.o): present with a part
    parts = {}
    for m in re.finditer(r'^([\w-]+)-(?:y|objs)\s*[:+]?=\s*(.*)$', text,
                         re.M):
        parts.setdefault(m.group(1), []).extend(
            w for w in m.group(2).split() if w.endswith('.o'))

    def is_token(w):
        return w.endswith('.o') or (w.endswith('/') and '$' not in w)

    def keep(w):
        if w.endswith('/'):
            sub = os.path.join(d, w)
            return any(f.startswith(sub) and not f.endswith('/Makefile')
                       for f in present)
        if w[:-2] in parts:
            return any(keep(p) for p in parts[w[:-2]] if p != w)
        base = os.path.join(d, w[:-2])
        return base + '.c' in present or base + '.S' in present

    out, gone = [], []
    for phys in logical_lines(text):
        kept = rewrap(phys, keep, is_token)
        words = ' '.join(phys).split()
        if not kept and '$(' in words[0]:
            gone.append(words[0][:words[0].index('$(')])
        # a list of variables that all went with their assignments
        refs = re.findall(r'\$\(([\w-]+)\)', ' '.join(words[2:]))
        if gone and refs and len(refs) == len(words[2:]) and \
           all(any(r.startswith(g) for g in gone) for r in refs):
            kept = []
        out += kept
    return '\n'.join(out)


def cut_kconfig(path, text, present):
    d = os.path.dirname(path)
    # a symbol that gates Makefile lines goes with the last of them
    used, gated = set(), set()
    for f in present:
        if f.startswith(d + '/') and os.path.basename(f) == 'Makefile':
            used |= set(re.findall(r'CONFIG_(\w+)',
                                   cut_kbuild(f, present[f], present)))
            gated |= set(re.findall(r'CONFIG_(\w+)', present[f]))
    out, drop = [], False
    for line in text.split('\n'):
        m = re.match(r'(menu)?config (\w+)', line)
        if m or re.match(r'(endmenu|menu|source|if|endif|comment)\b', line):
            drop = bool(m) and (m.group(2).endswith('KUNIT_TEST') or
                                m.group(2) in gated) and \
                m.group(2) not in used
        if not drop:
            out.append(line)
    return '\n'.join(out)


def cut_selftests(path, text, present):
    d = os.path.dirname(path)

    def have(rel):
        return os.path.join(d, rel) in present

    def keep_prog(w):
        return have(w + '.c') or have('arm64/' + w + '.c')

    selinux = any(f.startswith(d + '/selinux/') for f in present)
    out = []
    for phys in logical_lines(text):
        joined = ' '.join(phys)
        if phys[0].startswith('TEST_GEN_PROGS'):
            phys = rewrap(phys, keep_prog, lambda w: re.match(r'\w+$', w))
        elif phys[0].startswith('$(TEST_GEN_PROGS):'):
            phys = [re.sub(r' ?(\S+\.h)\b',
                           lambda m: m.group(0) if have(m.group(1)) else '',
                           p) for p in phys]
            phys = [p for p in phys if p.strip() not in ('', '\\')]
            if not phys[-1].endswith('\\') or len(phys) == 1:
                phys[-1] = phys[-1].rstrip(' \\')
        elif not selinux and 'selinux' in joined.lower():
            if phys[0].startswith('EXTRA_CLEAN'):
                phys = [re.sub(r' \S*selinux\S*', '', p) for p in phys]
            else:
                phys = []
        out += phys
    return re.sub(r'\n{3,}', '\n\n', '\n'.join(out))


def cut_index(path, text, present):
    d = os.path.dirname(path)
    out = []
    for line in text.split('\n'):
        m = re.match(r'   ([\w-]+)$', line)
        if m and os.path.join(d, m.group(1) + '.rst') not in present:
            continue
        out.append(line)
    return '\n'.join(out)


def cut(path, text, present):
    name = os.path.basename(path)
    if path == SELFTESTS + '/Makefile':
        return cut_selftests(path, text, present)
    if name == 'Makefile':
        return cut_kbuild(path, text, present)
    if name == 'Kconfig':
        return cut_kconfig(path, text, present)
    if path == 'Documentation/perf-core/index.rst':
        return cut_index(path, text, present)
    return text


# --- stand-ins ----------------------------------------------------------

STUBS_HEAD = """// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-ins for what later patches of the series add to %s/:
 * each answers as the absent feature would (an errno, nothing recorded,
 * no work done).  The patch that adds a file removes its stand-ins.
 */
"""


def stubs_for(d, missing):
    """stubs.c of directory d for its missing files (or None), and the
    names of the files it stands in for."""
    blocks = []
    for f in sorted(missing):
        src = os.path.join(STUBS, d, os.path.basename(f))
        if os.path.exists(src):
            with open(src) as fh:
                blocks.append((os.path.basename(f), fh.read()))
    if not blocks:
        return None, []
    includes, bodies = [], []
    for name, body in blocks:
        lines = body.rstrip('\n').split('\n')
        for line in lines:
            if line.startswith('#include') and line not in includes:
                includes.append(line)
        rest = [ln for ln in lines if not ln.startswith('#include') and
                not ln.startswith('// SPDX')]
        while rest and not rest[0].strip():
            rest.pop(0)
        bodies.append('\n'.join(rest))
    system = sorted((i for i in includes if i.endswith('>')),
                    key=lambda i: ('<linux/' not in i, i))
    local = sorted(i for i in includes if i.endswith('"'))
    head = '\n'.join(system) + ('\n\n' if system and local else '') + \
        '\n'.join(local)
    return (STUBS_HEAD % d + head + '\n\n' + '\n\n'.join(bodies) + '\n',
            [name for name, _ in blocks])


# --- commit messages ----------------------------------------------------

def opening_comment(text):
    """The first paragraph of a file's opening comment, as one line."""
    m = next((m for m in re.finditer(r'/\*\n?(.*?)\*/', text, re.S)
              if 'SPDX' not in m.group(1)), None)
    if not m:
        return ''
    para = []
    for line in m.group(1).split('\n'):
        line = re.sub(r'^\s*\* ?', '', line).strip()
        if not line:
            if para:
                break
            continue
        para.append(line)
    return ' '.join(para)


def first_title(text):
    lines = text.split('\n')
    for i, line in enumerate(lines[1:], 1):
        if re.match(r'^=+$', line) and lines[i - 1].strip():
            return lines[i - 1].strip()
    return ''


def wrap(text, lead=''):
    return textwrap.fill(lead + text, 72, break_long_words=False,
                         break_on_hyphens=False)


def message(st, added, text_of, glue_text, missing, removed_stubs, first):
    subject = st['subject']
    paras = []
    if first:
        stock = [p for p in OWNED if git('ls-tree', 'base', p).strip()]
        paras.append(wrap('Remove the stock implementation (%s) and put '
                          'the clean-room core in its place.' %
                          ', '.join(stock)))
    srcs = [f for f in added if re.search(r'\.[ch]$', f) and
            '/tests/' not in f and not f.startswith(SELFTESTS)]
    for f in srcs:
        txt = opening_comment(text_of[f])
        if txt:
            paras.append(wrap(txt, '%s: ' % f))
    kunit = [os.path.basename(f) for f in added if '/tests/' in f and
             f.endswith('_kunit.c')]
    if kunit:
        paras.append(wrap('KUnit: %s.' % ', '.join(kunit)))
    tests = [os.path.basename(f)[:-2] for f in added
             if f.startswith(SELFTESTS) and f.endswith('.c')]
    if tests:
        paras.append(wrap('Selftests: %s.' % ', '.join(tests)))
    docs = [f for f in added if f.endswith('.rst')]
    if docs:
        paras.append(wrap('Documentation: %s.' % '; '.join(
            '%s (%s)' % (os.path.basename(f), first_title(text_of[f]))
            for f in docs)))
    if st['remove']:
        tops = {'/'.join(f.split('/')[:2]) for f in st['remove']}
        repl = [f for f in srcs if '/'.join(f.split('/')[:2]) in tops]
        paras.append(wrap('Remove %s; %s take%s their place.' % (
            ', '.join(st['remove']), ', '.join(repl),
            '' if len(repl) > 1 else 's')))
    for g in glue_text:
        paras.append(wrap(g))
    if removed_stubs:
        paras.append(wrap('Drop the stand-ins of %s.' %
                          ', '.join(sorted(removed_stubs))))
    if missing:
        paras.append(wrap('Still to come, with stand-ins in stubs.c: %s.' %
                          ', '.join(sorted(missing))))
    paras.append('Signed-off-by: %s <%s>' % AUTHOR)
    return subject + '\n\n' + '\n\n'.join(paras) + '\n'


# --- the chain ----------------------------------------------------------

def main():
    stages = read_stages()
    files = project_files()
    owner = assign(stages, files)
    text_of = {}
    for f in files:
        with open(os.path.join(TOP, f), errors='surrogateescape') as fh:
            text_of[f] = fh.read()
    # the base's own perf_events selftests, kept in every patch
    upstream = [f for f in git('ls-tree', '--name-only', 'base',
                               SELFTESTS + '/').split()
                if f.endswith('.c') and f not in owner]
    stub_dirs = []
    for root, _, names in os.walk(STUBS):
        if names:
            stub_dirs.append(os.path.relpath(root, STUBS))
    tmp = tempfile.TemporaryDirectory()
    env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp.name, 'index'))
    git('read-tree', 'base', env=env)
    git('rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', *OWNED,
        env=env)
    for f in upstream:
        blob = git('rev-parse', 'base:' + f).strip()
        git('update-index', '--add', '--cacheinfo', '100644,%s,%s' %
            (blob, f), env=env)
    parent = git('rev-parse', 'base').strip()
    present_files = set()
    had_missing = {}
    blobs = {}

    def blob(body):
        if body not in blobs:
            blobs[body] = git('hash-object', '-w', '--stdin',
                              stdin=body).strip()
        return blobs[body]

    for i, st in enumerate(stages):
        added = sorted(f for f in files if owner[f] == i)
        present_files |= set(added)
        present = {f: text_of[f] for f in present_files}
        for f in upstream:
            present[f] = ''
        for path in st['remove']:
            git('rm', '-q', '--cached', '--', path, env=env)
        glue_text = []
        for num in st['glue']:
            pats = [p for p in os.listdir(os.path.join(TOP, 'patches'))
                    if p.startswith(num + '-') and p.endswith('.patch')]
            if len(pats) != 1:
                die('series-stages: no glue patch %s' % num)
            pat = os.path.join(TOP, 'patches', pats[0])
            git('apply', '--cached', pat, env=env)
            with open(pat) as fh:
                glue_text.append(fh.read().split('\n\n')[0].strip())
        # the project's files of this patch, cut to what it has
        want = {}
        for f in present_files:
            mode = '100755' if os.access(os.path.join(TOP, f), os.X_OK) \
                else '100644'
            want[f] = (mode, cut(f, text_of[f], present))
        missing = {}
        for d in stub_dirs:
            gone = [f for f in files if os.path.dirname(f) == d and
                    f not in present_files]
            body, names = stubs_for(d, gone)
            if not body:
                continue
            mk = os.path.join(d, 'Makefile')
            if mk not in want:
                die('%s: stand-ins without a Makefile' % d)
            want[os.path.join(d, 'stubs.c')] = ('100644', body)
            want[mk] = (want[mk][0], want[mk][1].rstrip('\n') +
                        '\n# stand-ins for files a later patch adds\n'
                        'obj-y += stubs.o\n')
            missing[d] = names
        for d in had_missing:
            if d not in missing:
                git('rm', '-q', '--cached', '--',
                    os.path.join(d, 'stubs.c'), env=env)
        info = ''.join('%s %s\t%s\n' % (mode, blob(body), f)
                       for f, (mode, body) in sorted(want.items()))
        git('update-index', '--add', '--index-info', stdin=info, env=env)
        removed_stubs = set()
        for d, names in had_missing.items():
            removed_stubs |= {os.path.join(d, n) for n in names
                              if n not in missing.get(d, [])}
        still = [os.path.join(d, n) for d, ns in missing.items() for n in ns]
        had_missing = missing
        tree = git('write-tree', env=env).strip()
        msg = message(st, added, text_of, glue_text, still, removed_stubs,
                      i == 0)
        parent = git('commit-tree', tree, '-p', parent, '-F', '-',
                     stdin=msg, env=dict(env, **{
                         'GIT_AUTHOR_NAME': AUTHOR[0],
                         'GIT_AUTHOR_EMAIL': AUTHOR[1],
                         'GIT_COMMITTER_NAME': AUTHOR[0],
                         'GIT_COMMITTER_EMAIL': AUTHOR[1]})).strip()
        print(parent)
    git('branch', '-f', BRANCH, parent)


main()
