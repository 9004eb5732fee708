"""Writes to the league's data, one function per action (``<entity>_<action>``).

Views, admin actions, API views and tasks call these; they hold the rules that the
database constraints cannot express and raise ``ValidationError`` with a message
for people.
"""
