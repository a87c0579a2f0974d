"""scripts/bench.py keeps working (tiny sizes; the real figures come from ``make bench``)."""

import importlib.util
from pathlib import Path

_path = Path(__file__).resolve().parent.parent / "scripts" / "bench.py"
_spec = importlib.util.spec_from_file_location("engine_bench", _path)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_bench_reports_every_engine_figure_as_a_positive_number():
    figures = {}
    figures.update(bench.bench_classic_games(rounds=1, games=2))
    figures.update(bench.bench_japanese_deals(rounds=1, deals=5))
    figures.update(bench.bench_replay(rounds=1, records=3))
    assert set(figures) == {
        "classic_games_per_s",
        "reference_classic_games_per_s",
        "classic_vs_reference",
        "japanese_deals_per_s",
        "reference_japanese_deals_per_s",
        "japanese_vs_reference",
        "replay_standard_records_per_s",
        "replay_1000_standard_records_s",
    }
    assert all(value > 0 for value in figures.values())


def test_bench_lists_its_benchmarks_by_name():
    assert set(bench.BENCHMARKS) == {"classic", "japanese", "replay"}
