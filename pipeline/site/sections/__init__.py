"""The page macros, one module per section of a page; each a plain function of what it needs.

`maths` (inline and display equations), `citations` (citation marks, tagged constants, the
reference list), `tables` (parameters and key numbers), `player` (the animation's poster player and
transcript), `exhibit` (the animation, figures and Explore panels), `reuse` (downloads and the
presenter kit), `scenario_notes` (what a non-default scenario's page says about itself), `home`
(the home and module pages' cards and journey), `glossary` (the glossary page).
"""
