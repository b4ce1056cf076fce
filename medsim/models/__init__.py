"""models: everything that produces a reply.

``base`` (the ChatModel contract) · ``config`` (models.yaml, ``resolve_model``) ·
``registry`` (built-in names) · ``openai_compat`` (any OpenAI-compatible endpoint) ·
``retry`` · ``limits`` · ``tokens`` (usage estimate) · ``scripted`` · ``embeddings`` ·
the offline clinicians ``baseline``, ``reference`` and the terminal ``human``.

Nothing here is imported by ``import medsim.models``: ``openai`` alone costs ~0.45 s.
"""
