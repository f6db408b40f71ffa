"""The settings that take more than a line to build, one concern a module.

Each module is a set of functions of the environment (and DEBUG) returning one setting's value;
readinglist/settings.py, the composition root, calls them and assigns every setting by name, so
`grep SETTING_NAME readinglist/settings.py` still finds where each one comes from. None of these
modules imports or names an app.
"""
