"""The deploy workflow, checked here since it cannot run here.

1. Schema: every workflow validates against SchemaStore's github-workflow schema, the one
   check-jsonschema (a pinned test dependency) bundles, offline; a broken copy is rejected.
   (actionlint's PyPI wrapper downloads its binary at install, which this project's machines cannot.)
2. What actionlint would also catch: every `needs.<job>.outputs.<name>`, `steps.<id>.outputs.<name>`,
   `matrix.<key>` and `env.<NAME>` an expression reads exists; every action is pinned to a major
   version; every output read from a known action is one it has.
3. Structure: the shard matrix, the cache keyed by `python -m pipeline keys`, merge after every shard,
   the release's files staged and the pages' links to them checked, the browser gate before the
   Pages upload, the release job attaching the files and checking them, deploy after both; and the
   commands are the ones `make deploy-check` proves here (pipeline/devloop/deploy_check.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from pipeline.devloop import deploy_check
from pipeline.presenter import release

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
DEPLOY = ROOT / ".github" / "workflows" / "deploy.yml"
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
# outputs of the actions used here, from each action's action.yml
ACTION_OUTPUTS = {
    "actions/cache": {"cache-hit"},
    "actions/cache/restore": {"cache-hit", "cache-primary-key", "cache-matched-key"},
    "actions/configure-pages": {"base_url", "origin", "host", "base_path"},
    "actions/deploy-pages": {"page_url"},
    "actions/download-artifact": {"download-path"},
}


def load(path: Path) -> dict:
    wf = yaml.safe_load(path.read_text())
    wf["on"] = wf.pop(True, wf.get("on"))  # YAML 1.1 reads the key `on` as True
    return wf


def schema_check(*files: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           *map(str, files)], capture_output=True, text=True, timeout=120)


def test_workflows_validate_against_the_schema():
    assert DEPLOY in WORKFLOWS
    proc = schema_check(*WORKFLOWS)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_schema_check_rejects_a_broken_workflow(tmp_path):
    broken = DEPLOY.read_text().replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest", 1)
    (tmp_path / "broken.yml").write_text(broken)
    proc = schema_check(tmp_path / "broken.yml")
    assert proc.returncode != 0 and "broken.yml" in proc.stdout + proc.stderr


def _strings(node, path=()):
    """(path, string) for every string in a YAML tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, (*path, str(k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _strings(v, (*path, str(i)))
    elif isinstance(node, str):
        yield path, node


def references(wf: dict) -> list[str]:
    """Every expression reference that names nothing, as 'where: what'."""
    problems = []
    top_env = set(wf.get("env", {}))
    for job_id, job in wf["jobs"].items():
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        steps = job.get("steps", [])
        step_uses = {s["id"]: s.get("uses", "").split("@")[0] for s in steps if "id" in s}
        matrix = set(job.get("strategy", {}).get("matrix", {}))
        job_env = top_env | set(job.get("env", {}))
        for path, text in _strings(job):
            step_env = set()
            if path[:1] == ("steps",):
                step_env = set(steps[int(path[1])].get("env", {}))
            for expr in EXPR.findall(text):
                where = f"jobs.{job_id}.{'.'.join(path)}"
                for other, name in re.findall(r"needs\.([\w-]+)\.outputs\.([\w-]+)", expr):
                    if other not in needs:
                        problems.append(f"{where}: needs.{other} but the job needs {needs}")
                    elif name not in wf["jobs"][other].get("outputs", {}):
                        problems.append(f"{where}: job {other} has no output {name!r}")
                for sid, name in re.findall(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr):
                    if sid not in step_uses:
                        problems.append(f"{where}: no step with id {sid!r} in job {job_id}")
                    elif step_uses[sid] in ACTION_OUTPUTS and name not in ACTION_OUTPUTS[step_uses[sid]]:
                        problems.append(f"{where}: {step_uses[sid]} has no output {name!r}")
                    elif not step_uses[sid] and f'"{name}=' not in str(steps) and f"{name}=" not in str(steps):
                        problems.append(f"{where}: step {sid!r} never writes output {name!r}")
                for key in re.findall(r"matrix\.([\w-]+)", expr):
                    if key not in matrix:
                        problems.append(f"{where}: no matrix key {key!r}")
                for name in re.findall(r"\benv\.(\w+)", expr):
                    if name not in job_env | step_env:
                        problems.append(f"{where}: env.{name} is not set")
    return problems


def test_every_expression_names_something_that_exists():
    for path in WORKFLOWS:
        wf = load(path)
        assert not references(wf), f"{path.name}:\n" + "\n".join(references(wf))
        uses = [s["uses"] for j in wf["jobs"].values() for s in j.get("steps", []) if "uses" in s]
        loose = [u for u in uses if not re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+", u)]
        assert not loose, f"{path.name}: actions not pinned to a major version: {loose}"


def test_the_reference_check_can_fail():
    wf = load(DEPLOY)
    wf["jobs"]["shard"]["steps"].append({"run": "echo ${{ needs.plan.outputs.nope }} ${{ matrix.x }} "
                                                "${{ steps.missing.outputs.y }} ${{ env.UNSET }}"})
    wf["jobs"]["deploy"]["steps"].append({"run": "echo ${{ needs.shard.outputs.key }}"})
    found = "\n".join(references(wf))
    for part in ("no output 'nope'", "no matrix key 'x'", "no step with id 'missing'", "env.UNSET",
                 "needs.shard but the job needs"):
        assert part in found, f"{part!r} not in:\n{found}"


def runs(job: dict) -> list[str]:
    return [" ".join(s["run"].split()) for s in job["steps"] if "run" in s]


def uses(job: dict) -> list[str]:
    return [s["uses"].split("@")[0] for s in job["steps"] if "uses" in s]


def as_workflow(argv: list[str], **subs: str) -> str:
    """A deploy_check command as the workflow writes it."""
    text = " ".join([".venv/bin/python", *argv])
    for value, shown in subs.items():
        text = text.replace(value, shown)
    return text


@pytest.fixture(scope="module")
def deploy() -> dict:
    return load(DEPLOY)


def test_triggers_permissions_and_one_deployment_at_a_time(deploy):
    assert deploy["on"]["push"]["branches"] == ["main"] and "workflow_dispatch" in deploy["on"]
    assert deploy["permissions"] == {"contents": "read"}
    assert deploy["concurrency"]["cancel-in-progress"] is False
    d = deploy["jobs"]["deploy"]
    assert d["permissions"] == {"pages": "write", "id-token": "write"}
    # only the release and prune jobs may write to the repository (its releases), and nothing else
    assert deploy["jobs"]["release"]["permissions"] == deploy["jobs"]["prune"]["permissions"] == {"contents": "write"}
    assert all("contents" not in j.get("permissions", {}) or j["permissions"]["contents"] == "read"
               for name, j in deploy["jobs"].items() if name not in ("release", "prune"))
    assert d["environment"]["name"] == "github-pages"
    assert d["environment"]["url"] == "${{ steps.deployment.outputs.page_url }}"


def test_cache_is_keyed_by_the_pipelines_content_hashes(deploy):
    env, plan, shard, merge = deploy["env"], *(deploy["jobs"][j] for j in ("plan", "shard", "merge"))
    keys = as_workflow(deploy_check.keys_cmd("hd"), hd='"$PRESET"')
    assert any(keys in r and "GITHUB_OUTPUT" in r for r in runs(plan)), runs(plan)
    # the release's tag is the digest's, cut as deploy-check's release.tag_for cuts it
    cut = next(re.search(r"tag=(\w+-)\$\{digest:0:(\d+)\}", r) for r in runs(plan) if "tag=" in r)
    digest = "0123456789abcdef" * 4
    assert cut and cut.group(1) + digest[:int(cut.group(2))] == release.tag_for(digest), runs(plan)
    assert env["PRESET"] == "hd"
    lookup = next(s for s in plan["steps"] if s.get("id") == "lookup")
    assert lookup["uses"].startswith("actions/cache/restore@") and lookup["with"]["lookup-only"] is True
    assert lookup["with"]["restore-keys"] == "${{ env.CACHE_PREFIX }}"  # a changed tree restores the last build
    restore = next(s for s in shard["steps"] if s.get("uses", "").startswith("actions/cache/restore@"))
    assert restore["with"] == {"path": "build", "key": "${{ needs.plan.outputs.key }}",
                               "restore-keys": "${{ needs.plan.outputs.restore }}"}
    save = next(s for s in merge["steps"] if s.get("uses", "").startswith("actions/cache/save@"))
    assert save["with"] == {"path": "build", "key": "${{ needs.plan.outputs.key }}"}
    # no hash of the tree decides what renders
    assert "hashFiles(" not in str(restore) + str(save) + str(lookup)


def test_shards_run_as_a_matrix_and_merge_after_all(deploy):
    shard, merge = deploy["jobs"]["shard"], deploy["jobs"]["merge"]
    n = int(deploy["env"]["SHARDS"])
    assert n == deploy_check.SHARDS == 3
    assert shard["strategy"]["matrix"]["shard"] == list(range(1, n + 1))
    cmd = as_workflow(deploy_check.shard_cmd("hd", 1, n), hd='"$PRESET"')
    cmd = cmd.replace(f"1/{n}", '"${{ matrix.shard }}/$SHARDS"')
    assert cmd in runs(shard), runs(shard)
    upload = next(s for s in shard["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "build/" and "${{ matrix.shard }}" in upload["with"]["name"]
    assert set(merge["needs"]) == {"plan", "shard"}
    download = next(s for s in merge["steps"] if s.get("uses", "").startswith("actions/download-artifact@"))
    merge_cmd = as_workflow(deploy_check.merge_cmd("hd", ["DIRS"]), hd='"$PRESET"',
                            DIRS=f"{download['with']['path']}/{download['with']['pattern']}")
    assert merge_cmd in runs(merge), runs(merge)
    scen = as_workflow(deploy_check.scenarios_cmd("hd"), hd='"$PRESET"')
    assert runs(merge).index(scen) == runs(merge).index(merge_cmd) + 1  # the other scenarios, after the merge


def test_the_gate_runs_before_anything_is_published(deploy):
    merge, deploy_job = deploy["jobs"]["merge"], deploy["jobs"]["deploy"]
    steps = [s.get("uses", "").split("@")[0] or " ".join(s["run"].split()) for s in merge["steps"]]
    gate = next(i for i, s in enumerate(steps) if as_workflow(deploy_check.gate_cmd()) in s)
    assert "W06_GATE_PREBUILT=1" in steps[gate]
    merged = next(i for i, s in enumerate(steps) if "pipeline merge" in s)
    upload = steps.index("actions/upload-pages-artifact")
    assert merged < gate < upload == len(steps) - 1
    # the release's files staged, and every page's link to one checked, before the gate and the uploads
    rel = next(i for i, s in enumerate(steps) if "pipeline release" in s)
    assert merged < rel < gate
    assert steps[rel].endswith(" ".join(deploy_check.release_cmd("R", "T")[-2:]))
    assert "chromium" in " ".join(runs(merge))
    assert set(deploy_job["needs"]) == {"merge", "release"} and uses(deploy_job) == ["actions/deploy-pages"]
    assert next(s for s in merge["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact"))[
        "with"]["path"] == "site"
    # the release site has its address from GitHub Pages
    assert merge["env"]["W06_SITE_URL"] == "${{ needs.plan.outputs.site_url }}"


def test_every_runner_is_set_up_as_make_does(deploy):
    for job_id in ("plan", "shard", "merge"):
        job = deploy["jobs"][job_id]
        assert job["container"] == "debian:12", job_id
        assert "make .venv/.ok" in runs(job), job_id
        assert uses(job)[0] == "actions/checkout", job_id
        # actions/cache versions an entry by its compression: every job must have the same tools
        assert "zstd" in runs(job)[0], job_id


def test_pages_artifact_is_packed_and_checked(tmp_path):
    site = tmp_path / "site"
    (site / "scenes" / "a").mkdir(parents=True)
    for name in ("index.html", "404.html", "sitemap.xml", "robots.txt", "scenes/a/index.html"):
        (site / name).write_text(name)
    files, size = deploy_check.pages_artifact(site, tmp_path / "pages.tar")
    with tarfile.open(tmp_path / "pages.tar") as tar:
        assert sorted(tar.getnames()) == sorted(["index.html", "404.html", "sitemap.xml", "robots.txt",
                                                 "scenes/a/index.html"])
    assert files == 5 and size > 0
    (site / "404.html").unlink()
    (tmp_path / "secret").write_text("x")
    (site / "leak").symlink_to(tmp_path / "secret")
    with pytest.raises(SystemExit) as e:
        deploy_check.pages_artifact(site, tmp_path / "again.tar")
    assert "404.html: missing" in str(e.value) and "leak: a link out of site/" in str(e.value)
    assert not (tmp_path / "again.tar").exists()


def test_release_job_attaches_what_merge_staged_and_checks_it(deploy):
    """The merge job stages the files (`python -m pipeline release`, as deploy-check runs it), uploads
    build/release/; the release job attaches exactly that folder's files to the release of the plan's tag
    and fails unless the release then holds every listed file at its size; deploy waits for it."""
    merge, rel = deploy["jobs"]["merge"], deploy["jobs"]["release"]
    cmd = as_workflow(deploy_check.release_cmd("R", "T"), R='"$W06_RELEASE_REPO"', T='"$W06_RELEASE_TAG"')
    assert cmd in runs(merge), runs(merge)
    assert merge["env"]["W06_RELEASE_REPO"] == "${{ github.repository }}"
    assert merge["env"]["W06_RELEASE_TAG"] == "${{ needs.plan.outputs.tag }}"
    up = next(s for s in merge["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert up["with"]["path"] == "build/release/" and up["with"]["if-no-files-found"] == "error"
    down = next(s for s in rel["steps"] if s.get("uses", "").startswith("actions/download-artifact@"))
    assert down["with"]["name"] == up["with"]["name"]
    assert set(rel["needs"]) == {"plan", "merge"} and rel["env"]["TAG"] == "${{ needs.plan.outputs.tag }}"
    script = "\n".join(runs(rel))
    # only what the release lacks is uploaded (a live site's links are never taken away), a new release is a
    # draft until filled, and the job fails unless every listed file is then attached at its size
    assert f"{down['with']['path']}/assets/{{n}}" in script and 'gh release upload "$TAG"' in script
    assert "--draft" in script and "--draft=false" in script
    assert script.index("gh release upload") < script.index("sys.exit(1 if wrong else 0)")
    assert "release.json" in script


def test_old_releases_are_pruned_only_after_the_new_site_is_live(deploy):
    prune = deploy["jobs"]["prune"]
    assert set(prune["needs"]) == {"plan", "deploy"} and prune["permissions"] == {"contents": "write"}
    script = "\n".join(runs(prune))
    # only the kits' own tags, never this one, and the one before it stays
    assert "'^site-[0-9a-f]{12}$'" in script and 'grep -vx "$TAG"' in script and "tail -n +2" in script


def test_shards_make_the_kits_and_deploy_check_runs_the_same_release_step():
    """The shard command carries --kit, and deploy-check's release step is the workflow's command."""
    assert deploy_check.shard_cmd("hd", 1, 3)[-1] == "--kit"
    assert deploy_check.shard_cmd("preview", 1, 3, ["a"])[-2:] == ["--kit", "a"]
    assert deploy_check.keys_cmd("hd")[-1] == "--kit"
    assert deploy_check.release_cmd("o/r", "site-0")[:3] == ["-m", "pipeline", "release"]
