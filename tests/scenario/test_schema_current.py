"""The committed JSON Schema must match the pydantic models (run `medsim schema` after a change)."""

from medsim.paths import scenarios_dir
from medsim.scenario.jsonschema import SCHEMAS, stale


def test_committed_json_schema_matches_the_models() -> None:
    assert stale(scenarios_dir() / "schema") == [], "run `medsim schema` and commit scenarios/schema/"


def test_every_bundled_file_points_editors_at_the_schema() -> None:
    folder = scenarios_dir()
    for path in folder.glob("*.yaml"):
        assert path.read_text(encoding="utf-8").startswith(
            "# yaml-language-server: $schema=schema/scenario.schema.json"), path
    for path in (folder / "cases").glob("*.yaml"):
        assert path.read_text(encoding="utf-8").startswith(
            "# yaml-language-server: $schema=../schema/cases.schema.json"), path
    assert set(SCHEMAS) <= {p.name for p in (folder / "schema").iterdir()}
