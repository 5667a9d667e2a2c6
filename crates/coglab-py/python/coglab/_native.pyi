"""Type stubs of coglab's native module (re-exported by ``coglab``)."""

import os
from typing import Any, Dict, Iterable, Mapping, Optional, Tuple, Union

Content = Union[bytes, bytearray, memoryview]
#: A path, content named ``<bytes>``, or ``(name, content)``.
Input = Union[str, "os.PathLike[str]", Content, Tuple[str, Content]]
Inputs = Union[Input, Iterable[Input]]
Result = Dict[str, Any]

__version__: str

def score_mmiq(answers: Input, predictions: Input, *, items: bool = ...) -> Result:
    """MM-IQ accuracy by category, as ``coglab score mmiq --answers KEY PRED --json``."""

def score_kiva(paths: Inputs, *, human: Optional[Input] = ..., trials: bool = ...) -> Result:
    """KiVA scores, as ``coglab score kiva PATH... --json``."""

def score_mmopera(
    task: str,
    metadata: Input,
    regular: Optional[Inputs] = ...,
    reasoning: Optional[Inputs] = ...,
    *,
    answers: Optional[Input] = ...,
    alpha: Optional[float] = ...,
    gamma: Optional[float] = ...,
    min_length: Optional[int] = ...,
    paper_decay: bool = ...,
    exclude_invalid: bool = ...,
    per_label: bool = ...,
    skip_bad_hop_items: bool = ...,
    items: bool = ...,
) -> Result:
    """MM-OPERA holistic and process-reward scores, as ``coglab score mmopera ... --json``."""

def sem(
    spec: Input,
    data: Input,
    *,
    bootstrap: Optional[int] = ...,
    seed: Optional[int] = ...,
    prune: bool = ...,
    missing: str = ...,
    max_iter: Optional[int] = ...,
) -> Result:
    """PLS-SEM analysis, as ``coglab sem --spec SPEC DATA --json``."""

def describe(data: Input) -> Result:
    """Descriptive statistics per column, as ``coglab describe DATA --json``."""

def rank(
    bench: str,
    files: Union[Iterable[Input], Mapping[str, Input]],
    *,
    answers: Optional[Input] = ...,
    metadata: Optional[Input] = ...,
    answered_only: bool = ...,
    test: Optional[str] = ...,
    adjust: Optional[str] = ...,
    alpha: Optional[float] = ...,
    resamples: Optional[int] = ...,
    seed: Optional[int] = ...,
    bootstrap_ranks: bool = ...,
    stage: Optional[str] = ...,
) -> Result:
    """A leaderboard with paired tests and rank ranges, as ``coglab rank BENCH FILES... --json``."""

def items(
    inputs: Inputs,
    *,
    answers: Optional[Input] = ...,
    model: Optional[str] = ...,
    stage: Optional[str] = ...,
    threshold: Optional[float] = ...,
    per_subdomain: bool = ...,
    subset: Optional[str] = ...,
    tau: Optional[float] = ...,
    curves: bool = ...,
    report: bool = ...,
) -> Result:
    """Item analysis (classical, Rasch/2PL, flags, reduced subset), as ``coglab items ... --json``
    (``report=True``: the page-sized summary, as ``--json --report``)."""
