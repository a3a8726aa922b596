"""Shared test setup.

matplotlib is switched to the non-interactive Agg backend here, at import, before any test module imports
pyplot or the widgets: tests run headless. (Deliberately not through the MPLBACKEND environment variable,
which would also change the backend of anything else started from the same environment.)
"""

import matplotlib

matplotlib.use("Agg")
