"""The parser fuzz benchmark (issue 16): seeded instructions through ``parse`` and ``route``.

:mod:`.instructions` writes the instructions (real words from the language lexicons and the
shipped episodes, long modifier chains, junk, unicode, up to and past the length limit);
:mod:`.run` times the offline grounder's two command paths on each and sorts every outcome
into a result, a clean error or a traceback.
"""
