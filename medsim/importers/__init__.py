"""Importers: public benchmarks written out as medsim scenarios and cases."""

# Scenario ids the importers write; the taxonomies map them, though they are not bundled.
IMPORTED_IDS = frozenset({"llmeval_mk", "llmeval_mlu", "llmeval_mr", "llmeval_mse", "llmeval_mtg", "cmb_clin"})
