"""Puts a release build of `smartstack` into the package when there is one.

Looks for $SMARTSTACK_WHEEL_BIN (a binary to package, e.g. a --static-swift-stdlib build),
then `src/smartstack/bin/smartstack` (inside an sdist made by this hook), then the
repository's `../.build/release/smartstack` (`swift build -c release --product smartstack`).
Found: the sdist carries it, and the wheel carries it as `smartstack/bin/smartstack` and is
tagged for this platform only (`py3-none-linux_x86_64`). Not found, or an editable install:
a pure-Python package that runs the binary from $SMARTSTACK_BIN or PATH.
"""

import os
import sysconfig
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

IN_PACKAGE = "src/smartstack/bin/smartstack"


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        root = Path(self.root)
        chosen = os.environ.get("SMARTSTACK_WHEEL_BIN")
        if chosen and not Path(chosen).is_file():
            raise FileNotFoundError(f"SMARTSTACK_WHEEL_BIN={chosen}: no such file")
        candidates = [Path(chosen)] if chosen else []
        candidates += [root / IN_PACKAGE, root.parent / ".build" / "release" / "smartstack"]
        found = [p for p in candidates if p.is_file()]
        if version == "editable" or not found:
            self.app.display_info("smartstacklab: no release binary packaged (pure Python)")
            return
        binary = found[0].resolve()
        if self.target_name == "sdist":
            build_data["force_include"][str(binary)] = IN_PACKAGE
        else:
            build_data["force_include"][str(binary)] = "smartstack/bin/smartstack"
            build_data["pure_python"] = False
            build_data["tag"] = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
        self.app.display_info(f"smartstacklab: packaging {binary}")
        if b"libswiftCore.so" in binary.read_bytes():
            self.app.display_warning(
                "smartstacklab: this binary loads the Swift runtime from the toolchain; for a wheel "
                "that runs where Swift is not installed, build it with --static-swift-stdlib")
