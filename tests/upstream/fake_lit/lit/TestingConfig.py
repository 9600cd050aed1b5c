"""lit_env.py replaces TestingConfig.fromdefaults; nothing here calls it."""


class TestingConfig:
    @staticmethod
    def fromdefaults(lit_config):
        return None
