"""The optional spaCy pipeline: medsim tokens, entities and negation on the Doc."""

import pytest

spacy = pytest.importorskip("spacy")


def test_pipeline_puts_entities_and_negation_on_the_doc():
    from medsim.text.spacy_component import make_nlp

    nlp = make_nlp()
    text = "患者否认高血压、糖尿病史。  WBC 5.0×109/L，右下腹痛3天。\n父亲有冠心病"
    doc = nlp(text)
    assert doc.text == text
    assert "5.0×109/L" in [t.text for t in doc]
    ents = {e.text: e for e in doc.ents}
    assert ents["高血压"].label_ == "DISEASE" and ents["高血压"]._.polarity == "absent"
    assert ents["WBC 5.0×109/L"]._.value == 5.0 and ents["WBC 5.0×109/L"]._.name == "白细胞计数"
    assert ents["右下腹痛"]._.laterality == "右"
    assert ents["冠心病"]._.owner == "family"
