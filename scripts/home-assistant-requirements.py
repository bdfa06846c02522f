"""Prints, one a line, the Python requirements of the integrations a headless Home Assistant sets
up: those it always sets up (its bootstrap's default and core sets) and the ones named on the
command line (mqtt), with every integration they depend on. Read from the integrations'
manifests in the installed homeassistant package, so a new pinned version brings its own list.

Run with the virtual environment's Python, by scripts/install-home-assistant: Home Assistant
would install these on its first start; the test starts it with --skip-pip instead.
"""

import json
import pathlib
import sys

from homeassistant import bootstrap
import homeassistant.components

components = pathlib.Path(homeassistant.components.__path__[0])

wanted = set(sys.argv[1:])
for name in ("CORE_INTEGRATIONS", "DEFAULT_INTEGRATIONS", "LOGGING_AND_HTTP_DEPS_INTEGRATIONS"):
    wanted |= set(getattr(bootstrap, name, set()))
# Set up only when configured (or on Home Assistant OS): not here.
wanted -= {"sentry", "hassio"}

requirements = []
seen = set()
pending = sorted(wanted)
while pending:
    domain = pending.pop()
    if domain in seen:
        continue
    seen.add(domain)
    manifest_path = components / domain / "manifest.json"
    if not manifest_path.exists():
        continue
    manifest = json.loads(manifest_path.read_text())
    for requirement in manifest.get("requirements", []):
        if requirement not in requirements:
            requirements.append(requirement)
    pending.extend(manifest.get("dependencies", []))

print("\n".join(requirements))
