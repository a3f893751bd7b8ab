"""What each paper states, and what the suite does with it: the inventory of a paper's
numbered results (and the unnumbered statements a reader would want checked, such as a
stated contribution), each with the claims that check it and how, or the reason it is not
checked.

A paper package declares ``RESULTS``, a sequence of :class:`Stated`, beside its
``CLAIMS``; ``kpca-suite list --coverage [PAPER]`` prints it with its counts and the
catalogue includes it. Every statement is in exactly one state:

``checked``         ``claims`` names the claim(s) that check it and ``how`` says how (one of
                    :data:`HOW`, with detail after a colon; ``cost`` is judged on counts that do
                    not depend on the machine's load: memory traced by tracemalloc, operations
                    counted from the shapes the code uses, never seconds);
``out of reach``    ``reason`` says why no measurement can check it (one of :data:`REASONS`,
                    with the numbers: the n where a bound stops being vacuous, ...);
``not yet checked`` ``gap`` says what a claim would measure: a debt, counted and shown.

A plug-in paper may declare ``RESULTS`` too; one that does not has no inventory.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Kinds of statement, as a paper numbers them.
KINDS = ("theorem", "lemma", "proposition", "corollary", "remark", "equation", "table", "figure", "section",
         "contribution", "algorithm", "assumption", "definition", "example")

#: How a claim checks a statement (the word before any colon in ``how``).
HOW = ("rate", "bound", "probable bound", "identity", "reproduction", "ordering", "qualitative", "erratum", "cost")

#: Why a statement is out of reach (the word before any colon in ``reason``).
REASONS = ("vacuous", "proof step", "quoted", "no data", "definition", "not measurable", "beyond a machine")

STATES = ("checked", "out of reach", "not yet checked")


@dataclass(frozen=True)
class Stated:
    """One statement of a paper.

    ``ref``     the paper's own label, short ("Thm. 4.1(ii)", "Eq. (16)", "Table 1, col. 3",
                "Fig. 2 (left)", "Sec. 6.1", "Contribution 2");
    ``kind``    one of :data:`KINDS`;
    ``says``    what it states, in our words, in one sentence;
    ``claims``  the ids of the claims that check it; ``how`` how (see :data:`HOW`);
    ``reason``  why it is out of reach (see :data:`REASONS`);
    ``gap``     what a claim would measure, while none does.
    """

    ref: str
    kind: str
    says: str
    claims: tuple = ()
    how: str = ""
    reason: str = ""
    gap: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.ref}: kind must be one of {KINDS}, got {self.kind!r}")
        if isinstance(self.claims, str):
            object.__setattr__(self, "claims", (self.claims,))
        given = [bool(self.claims), bool(self.reason), bool(self.gap)]
        if sum(given) != 1:
            raise ValueError(f"{self.ref}: give exactly one of claims (with how), reason or gap")
        if self.claims and self.how.split(":", 1)[0].strip() not in HOW:
            raise ValueError(f"{self.ref}: how must start with one of {HOW}, got {self.how!r}")
        if self.reason and self.reason.split(":", 1)[0].strip() not in REASONS:
            raise ValueError(f"{self.ref}: reason must start with one of {REASONS}, got {self.reason!r}")

    @property
    def state(self) -> str:
        return STATES[0] if self.claims else STATES[1] if self.reason else STATES[2]

    @property
    def detail(self) -> str:
        """How it is checked, why it is out of reach, or what a claim would measure."""
        return self.how if self.claims else self.reason or self.gap


def counts(results) -> dict:
    """``{"results": N, "checked": ..., "out of reach": ..., "not yet checked": ...}``."""
    out = {"results": len(results)}
    out.update({s: sum(r.state == s for r in results) for s in STATES})
    return out


def results_of(claim_id: str, inventories: dict) -> list:
    """The statements (as ``(paper, Stated)``) that name ``claim_id`` among their claims."""
    base = claim_id.split("[", 1)[0]
    return [(paper, r) for paper, rs in inventories.items() for r in rs if base in r.claims]


def problems(inventory, claim_ids) -> list:
    """What is wrong between one paper's ``inventory`` and its claims (``claim_ids``): a
    statement naming a claim that does not exist, a claim no statement names, a label
    given twice."""
    known = set(claim_ids)
    out = [f"{r.ref}: names unknown claim {c!r}" for r in inventory for c in r.claims if c not in known]
    named = {c for r in inventory for c in r.claims}
    out += [f"claim {c!r} checks no statement of the inventory" for c in claim_ids if c not in named]
    refs = [r.ref for r in inventory]
    out += [f"{ref}: listed twice" for ref in sorted({x for x in refs if refs.count(x) > 1})]
    return out


def table(paper_key: str, inventory) -> str:
    """The inventory of one paper as a Markdown table, counts first."""
    c = counts(inventory)
    lines = [f"**{paper_key}**: {c['results']} statements: {c['checked']} checked, {c['out of reach']} out of "
             f"reach, {c['not yet checked']} not yet checked", "",
             "| result | states | state | by | how / why |", "|---|---|---|---|---|"]
    for r in inventory:
        by = ", ".join(f"`{x}`" for x in r.claims)
        lines.append(f"| {r.ref} | {_cell(r.says)} | {r.state} | {by} | {_cell(r.detail)} |")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
