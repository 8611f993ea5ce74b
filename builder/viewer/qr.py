"""The QR code of a link as inline SVG, the same bytes as segno's, at a fraction of its CPU.

``segno.make(text, error="l", micro=False, mask=0).svg_inline(scale=1, light="#fff",
omitsize=True, title=...)`` drew a new link's QR code in about 3 ms, half of a new link's page.
What does not depend on the text is the same for every link of one version and error level: the
function patterns, the format and version information, mask 0 over the data region, and where
each bit of the message goes. It is worked out once per process and version (with segno's own
functions); a link then costs its Reed-Solomon codewords (one table lookup and one XOR of
integers per data byte) and a string gathered in C. ``qr_svg`` falls back to segno for a text
that is not sent in byte mode as ASCII (a link always is).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

import segno
from segno import consts
from segno import encoder as _segno_encoder

from builder import state

__all__ = ["qr_svg"]

BORDER = 4  # the quiet zone of a QR code, in modules
_NOT_BYTE_MODE = re.compile(r"[0-9A-Z $%*+\-./:]*\Z")  # all digits or alphanumeric: segno packs them denser
_RUNS = re.compile("(?:0*\n)*0*1+")
_FLIP = str.maketrans("01", "10")
_encoder: Any = _segno_encoder  # segno's own steps, for what each version has in common
_CAPACITY: Any = consts.SYMBOL_CAPACITY  # bits of data by version and error level
_LEVELS = (consts.ERROR_LEVEL_L, consts.ERROR_LEVEL_M, consts.ERROR_LEVEL_Q, consts.ERROR_LEVEL_H)


def qr_svg(text: str, title: str) -> str:
    """``text`` as a QR code (error level L at least, raised while the version allows it; mask
    0), as the ``<svg>`` element segno's ``svg_inline(scale=1, light="#fff", omitsize=True,
    title=title)`` writes."""
    if not text.isascii() or _NOT_BYTE_MODE.match(text):
        return _segno_svg(text, title)
    data = text.encode("ascii")
    version, error = _version_and_error(len(data))
    if version == 0:
        return _segno_svg(text, title)  # too long for a QR code: segno says so
    width, gather, bits_count = _symbol(version, error)
    message = _message(data, version, error)
    bits = format(int.from_bytes(message, "big"), f"0{len(message) * 8}b")
    bits += "0" * (bits_count - len(bits))  # the remainder bits of some versions
    modules = "".join(gather(bits + bits.translate(_FLIP) + "01\n"))
    return _svg(modules, width, title)


def _segno_svg(text: str, title: str) -> str:
    return segno.make(text, error="l", micro=False, mask=0).svg_inline(
        scale=1, light="#fff", omitsize=True, title=title
    )


@state.memo("viewer.qr_versions", bound=4096, lifetime=state.PROCESS, doc="QR version and error level by byte count")
def _version_and_error(n: int) -> tuple[int, int]:
    """The smallest version holding ``n`` bytes in byte mode at level L, and the highest error
    level that version still holds them at (segno's ``boost_error``); (0, 0): none holds them."""
    for version in range(1, 41):
        count_bits = consts.CHAR_COUNT_INDICATOR_LENGTH[consts.MODE_BYTE][_encoder.version_range(version)]
        length = 4 + count_bits + 8 * n
        if _CAPACITY[version][consts.ERROR_LEVEL_L] >= length:
            error = consts.ERROR_LEVEL_L
            for level in _LEVELS[1:]:
                if _CAPACITY[version][level] < length:
                    break
                error = level
            return version, error
    return 0, 0


def _message(data: bytes, version: int, error: int) -> bytes:
    """The final message: the data codewords (mode, count, bytes, terminator, padding, pad
    codewords, as segno writes them) in blocks interleaved, then their error correction."""
    capacity = _CAPACITY[version][error]
    count_bits = consts.CHAR_COUNT_INDICATOR_LENGTH[consts.MODE_BYTE][_encoder.version_range(version)]
    value = (0b0100 << count_bits) | len(data)
    value = (value << (8 * len(data))) | int.from_bytes(data, "big")
    length = 4 + count_bits + 8 * len(data)
    terminator = min(capacity - length, consts.TERMINATOR_LENGTH[None])
    value, length = value << terminator, length + terminator
    padding = 8 - length % 8  # segno writes a whole zero byte when the stream is already aligned
    value, length = value << padding, length + padding
    stream = value.to_bytes(length // 8, "big")
    pads = capacity // 8 - len(stream)  # pad codewords to the capacity (none when past it)
    stream = (stream + (b"\xec\x11" * (pads // 2 + 1))[: max(pads, 0)])[: capacity // 8]
    data_blocks, error_blocks = [], []
    at = 0
    blocks: Any = consts.ECC[version]  # how the codewords of each error level are cut in blocks
    for info in blocks[error]:
        ecc = _ecc(info.num_total - info.num_data)
        for _ in range(info.num_blocks):
            block = stream[at : at + info.num_data]
            at += info.num_data
            data_blocks.append(block)
            error_blocks.append(ecc(block))
    return _interleave(data_blocks) + _interleave(error_blocks)


def _interleave(blocks: list[bytes]) -> bytes:
    longest = max(len(b) for b in blocks)
    return bytes(b[i] for i in range(longest) for b in blocks if i < len(b))


@state.memo("viewer.qr_ecc", bound=64, lifetime=state.PROCESS, doc="Reed-Solomon tables by error codewords")
def _ecc(n: int) -> Callable[[bytes], bytes]:
    """The Reed-Solomon error correction of ``n`` codewords: the remainder of the block by the
    generator polynomial, one byte at a time, the generator's multiples by each byte value
    taken from a table (as integers of ``n`` bytes)."""
    log, exp, gen = consts.GALIOS_LOG, consts.GALIOS_EXP, consts.GEN_POLY[n]
    table = [0] + [int.from_bytes(bytes(exp[log[c] + g] for g in gen[:n]), "big") for c in range(1, 256)]
    shift, top = 8 * (n - 1), (1 << (8 * (n - 1))) - 1

    def ecc(block: bytes) -> bytes:
        rem = 0
        for byte in block:
            lead = (rem >> shift) ^ byte
            rem = ((rem & top) << 8) ^ table[lead]
        return rem.to_bytes(n, "big")

    return ecc


@state.memo(
    "viewer.qr_symbols", bound=160, lifetime=state.PROCESS, doc="what QR codes of one version and error level share"
)
def _symbol(version: int, error: int) -> tuple[int, Callable[[str], tuple[str, ...]], int]:
    """(the width of the symbol, a function from the source string ``bits + flipped bits +
    "01\\n"`` to its modules row by row, each row ended by a newline, the number of bits of the
    data region)."""
    width = _encoder.calc_matrix_size(version)
    matrix = _encoder.make_matrix(width, width)
    _encoder.add_finder_patterns(matrix, width, width)
    _encoder.add_alignment_patterns(matrix, width, width)
    order = []  # the data region's modules in the order the bits fill them (segno's add_codewords)
    for right in range(width - 1, 0, -2):
        if right <= 6:
            right -= 1
        for vertical in range(width):
            for z in (0, 1):
                j = right - z
                upwards = ((right & 2) == 0) ^ (j < 6)
                i = (width - 1 - vertical) if upwards else vertical
                if matrix[i][j] == 0x2:
                    order.append((i, j))
    _encoder.add_codewords(matrix, [0] * len(order), version)
    _mask, matrix = _encoder.find_and_apply_best_mask(matrix, width, width, 0)
    _encoder.add_format_info(matrix, version, error, 0)
    _encoder.add_version_info(matrix, version)
    n = len(order)
    row = width + 1  # each row ends in "\n"
    source = [2 * n + (matrix[i][j] if j < width else 2) for i in range(width) for j in range(row)]
    for k, (i, j) in enumerate(order):  # a data module: its bit, flipped where the mask is dark
        source[i * row + j] = k + n * matrix[i][j]
    return width, operator.itemgetter(*source), n


def _svg(modules: str, width: int, title: str) -> str:
    """segno's SVG of the symbol (``modules``: its rows of "0" and "1", each ended by a newline):
    each row's runs of dark modules as strokes, each move relative to the end of the last
    stroke. A run and the light modules and row ends before it make one string whose stroke
    is the same wherever it is, so it is written once per process."""
    size = width + 2 * BORDER
    runs = _RUNS.findall(modules) or ["1"]  # a symbol always has dark modules (its finders)
    head = runs[0]  # the first stroke moves from the corner
    dark = len(head) - len(head.rstrip("1"))
    before = head[: len(head) - dark]
    x, y = BORDER + len(before) - before.rfind("\n") - 1, BORDER + before.count("\n") + 0.5
    strokes = _strokes(width)
    path = f"M{x} {y}h{dark}" + "".join([strokes[r] for r in runs[1:]])
    background = f'<path fill="#fff" d="M0 0h{size}v{size}h-{size}z"/>'
    dark_path = '<path class="qrline" stroke="#000" d="' + path + '"/>'
    paths = "".join(sorted((dark_path, background), key=len))
    return f'<svg viewBox="0 0 {size} {size}" class="segno"><title>{escape(title)}</title>{paths}</svg>'


class _Strokes(dict[str, str]):
    """The stroke of a run of dark modules, by the run with what comes before it since the last
    run: light modules left in its row, row ends, light modules before it in its row."""

    def __init__(self, width: int):
        super().__init__()
        self.width = width

    def __missing__(self, run: str) -> str:
        dark = len(run) - len(run.rstrip("1"))
        before = run[: len(run) - dark]
        rows = before.count("\n")
        lead = len(before) - before.rfind("\n") - 1 if rows else len(before)
        move = lead - (self.width - before.index("\n")) if rows else lead
        if len(self) > 4096:  # a bound on what is kept: the runs of a few thousand links
            self.clear()
        stroke = self[run] = f"m{move} {rows}h{dark}"
        return stroke


@state.memo(
    "viewer.qr_strokes", bound=40, lifetime=state.PROCESS, doc="SVG strokes of QR runs by width (4,096 each at most)"
)
def _strokes(width: int) -> _Strokes:
    return _Strokes(width)
