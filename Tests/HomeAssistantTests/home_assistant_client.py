"""The HomeAssistantTests' hands on a running Home Assistant, run with its virtual environment's
Python (aiohttp comes with Home Assistant). One call a process, its answer as JSON on stdout:

  onboard                  creates the owner through onboarding, as a new user's browser would,
                           and writes an access token to --token-file (no stored auth files to
                           fake: their format changes between releases, this API does not)
  add-mqtt PORT            adds the MQTT integration on 127.0.0.1:PORT through its config flow
  ws MESSAGE               sends one websocket command (JSON without "id") and prints its result

Errors go to stderr with exit status 1.
"""

import argparse
import asyncio
import json
import sys

import aiohttp

CLIENT_ID = "http://127.0.0.1/"


async def onboard(session, url, token_file):
    async with session.post(
        f"{url}/api/onboarding/users",
        json={"client_id": CLIENT_ID, "name": "Test", "username": "test", "password": "test-password", "language": "en"},
    ) as response:
        answer = await expect_ok(response)
    async with session.post(
        f"{url}/auth/token",
        data={"grant_type": "authorization_code", "code": answer["auth_code"], "client_id": CLIENT_ID},
    ) as response:
        token = (await expect_ok(response))["access_token"]
    with open(token_file, "w") as file:
        file.write(token)
    return {"onboarded": True}


async def add_mqtt(session, url, token, port):
    headers = {"Authorization": f"Bearer {token}"}
    async with session.post(f"{url}/api/config/config_entries/flow", json={"handler": "mqtt"}, headers=headers) as response:
        step = await expect_ok(response)
    # The flow may open with a menu or straight with the broker form, depending on the release.
    for _ in range(5):
        if step.get("type") == "create_entry":
            return {"entry_id": step["result"]["entry_id"] if isinstance(step.get("result"), dict) else step.get("result")}
        if step.get("type") == "menu":
            body = {"next_step_id": "broker" if "broker" in step.get("menu_options", []) else step["menu_options"][0]}
        elif step.get("type") == "form":
            body = {"broker": "127.0.0.1", "port": port}
        else:
            raise RuntimeError(f"unexpected MQTT config flow step: {step}")
        async with session.post(f"{url}/api/config/config_entries/flow/{step['flow_id']}", json=body, headers=headers) as response:
            step = await expect_ok(response)
    raise RuntimeError(f"the MQTT config flow did not finish: {step}")


async def websocket(session, url, token, message):
    async with session.ws_connect(f"{url}/api/websocket") as socket:
        await socket.receive_json()  # auth_required
        await socket.send_json({"type": "auth", "access_token": token})
        answer = await socket.receive_json()
        if answer.get("type") != "auth_ok":
            raise RuntimeError(f"websocket authentication failed: {answer}")
        await socket.send_json({"id": 1, **message})
        while True:
            answer = await socket.receive_json()
            if answer.get("id") == 1 and answer.get("type") == "result":
                break
        if not answer.get("success"):
            raise RuntimeError(f"{message.get('type')} failed: {answer.get('error')}")
        return answer.get("result")


async def expect_ok(response):
    text = await response.text()
    if response.status >= 300:
        raise RuntimeError(f"{response.method} {response.url} answered {response.status}: {text}")
    return json.loads(text)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("command", choices=["onboard", "add-mqtt", "ws"])
    parser.add_argument("argument", nargs="?")
    arguments = parser.parse_args()
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        if arguments.command == "onboard":
            result = await onboard(session, arguments.url, arguments.token_file)
        else:
            with open(arguments.token_file) as file:
                token = file.read().strip()
            if arguments.command == "add-mqtt":
                result = await add_mqtt(session, arguments.url, token, int(arguments.argument))
            else:
                result = await websocket(session, arguments.url, token, json.loads(arguments.argument))
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except Exception as error:  # noqa: BLE001 - the test reads the message
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
