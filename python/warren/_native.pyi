"""Type stubs of warren's native module (see ``warren`` for the documented API)."""

from typing import Any, Optional, Sequence


__version__: str
__build__: str

class Batch:
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> tuple[object, object]: ...

class Run:
    def __init__(
        self,
        profile: str,
        count: int,
        seed: int = 0,
        start: int = 0,
        threads: int = 0,
        sets: list[str] = ...,
        chunk_size: int = 2048,
    ) -> None: ...
    def __arrow_c_schema__(self) -> object: ...
    def next_batch(self) -> Optional[Batch]: ...
    def summary(self) -> Optional[tuple[int, int, list[tuple[str, int]]]]: ...
    def close(self) -> None: ...

def kinds() -> list[str]: ...
def kind_facts() -> list[tuple[str, str, str, bool, int]]: ...
def default_profile(kind: str) -> str: ...
def verify(stream: object, show: int = 10) -> tuple[int, int, list[str]]: ...
def merge(
    parts: list[str],
    out: str,
    unique: bool = False,
    threads: int = 0,
    resume: bool = False,
    progress: bool = False,
) -> dict: ...
def split(
    archive: str,
    out: str,
    train: float = 0.8,
    val: float = 0.1,
    test: float = 0.1,
    format: str = "arrow",
) -> dict: ...
def cli(argv: list[str]) -> int: ...

def task_names() -> list[str]: ...
def task_validate(config_json: str) -> None: ...
def task_metric_names(config_json: str) -> list[str]: ...
def task_items(
    config_json: str,
    seed: int,
    start: int,
    count: int,
    threads: int = 1,
) -> dict[str, Any]: ...
def score(task: Optional[str], answers: Sequence[object], entries: Sequence[object]) -> list[float]: ...
