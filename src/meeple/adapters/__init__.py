"""Adapters to the field's tools: OpenSpiel (``openspiel``), PettingZoo and Gymnasium (``pettingzoo``).

Each needs its extra: ``pip install 'meeple[openspiel]'`` or ``'meeple[pettingzoo]'``. docs/research.md.
"""
