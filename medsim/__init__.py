"""medsim: evaluate large language models in Chinese clinical work.

The library never imports the CLI (``cli/``); it returns data and the CLI renders it.
"""

__version__ = "0.1.0"
