"""Type stubs of the coglab package."""

from typing import Any, Dict, List, Optional

from ._errors import CoglabError as CoglabError
from ._errors import InputError as InputError
from ._errors import UsageError as UsageError
from ._native import Input as Input
from ._native import Inputs as Inputs
from ._native import __version__ as __version__
from ._native import anchors as anchors
from ._native import describe as describe
from ._native import estimate as estimate
from ._native import export_eee as export_eee
from ._native import items as items
from ._native import plan as plan
from ._native import rank as rank
from ._native import score_kiva as score_kiva
from ._native import score_mmiq as score_mmiq
from ._native import score_mmopera as score_mmopera
from ._native import selftest_bank as selftest_bank
from ._native import selftest_simulate as selftest_simulate
from ._native import sem as sem

class Result(Dict[str, Any]):
    """A result dict with its tables as frames."""

    def tables(self) -> List[str]: ...
    def to_arrow(self, table: Optional[str] = ...) -> Any:
        """One table as a ``pyarrow.Table`` (typed, nullable; needs ``coglab[arrow]``)."""
    def to_frame(self, table: Optional[str] = ...) -> Any:
        """One table as a pandas DataFrame."""

def tables(result: Dict[str, Any]) -> List[str]: ...
def to_arrow(result: Dict[str, Any], table: Optional[str] = ...) -> Any: ...
def to_frame(result: Dict[str, Any], table: Optional[str] = ...) -> Any: ...
