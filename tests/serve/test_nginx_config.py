"""The serving configuration defends itself: nginx's limits, headers and buffers as ``make serve`` writes them,
the compose proxy's config in step with it, and the container files (non-root, digest-pinned, hashed installs,
bound to loopback, memory-limited). The behaviour behind nginx: test_proxy.py."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bleu_core.limits import LIMITS
from deploy.serve import find_nginx, write_nginx_config
from tests.serve.conftest import need_nginx

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"

#: Bytes of one character of a link at most once percent-encoded: 4 bytes of UTF-8, each written as %XX.
#: (A Chinese character is 3 bytes: 9.)
ENCODED_BYTES_PER_CHARACTER = 12


def rendered(folder: Path) -> str:
    (folder / "logs").mkdir(exist_ok=True)
    (folder / "temp").mkdir(exist_ok=True)
    return write_nginx_config(folder, folder / "temp", "127.0.0.1", 8501, [8601, 8602]).read_text()


def directives(text: str) -> list[str]:
    """The config's lines without comments or blank lines, whitespace collapsed."""
    lines = (re.sub(r"\s+", " ", line.split("#", 1)[0]).strip() for line in text.splitlines())
    return [line for line in lines if line]


def value(text: str, name: str) -> str:
    found = re.findall(rf"^\s*{name}\s+([^;]+);", text, flags=re.MULTILINE)
    assert len(set(found)) == 1, f"{name}: {found}"
    return str(found[0])


def size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", text).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def seconds(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(s|m|h|d)?", text).groups()  # type: ignore[union-attr]
    return int(number) * {None: 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]


def test_per_client_limits_hold_a_class_behind_one_address(tmp_path: Path) -> None:
    config = rendered(tmp_path)
    assert "limit_conn_zone $binary_remote_addr zone=per_client_connections:" in config
    connections = int(value(config, "limit_conn per_client_connections"))
    # A class of 100 opening the link together: one websocket and up to 6 loading connections each.
    assert connections >= 100 * (1 + 6)
    # ...and one address at its limit leaves most of nginx to everyone else (each client takes two).
    assert 4 * connections <= int(value(config, "worker_connections")) // 2
    assert int(value(config, "worker_rlimit_nofile")) >= 2 * int(value(config, "worker_connections"))
    zones = dict(re.findall(r"limit_req_zone \$binary_remote_addr zone=(\w+):\w+ rate=(\d+)r/s;", config))
    assert set(zones) == {"per_client_static", "per_client_requests"}
    # Every location is rate-limited; a class's first loads (about 165 requests a tab) fit in the bursts.
    locations = re.findall(r"location [^{]+\{([^}]*)\}", config)
    assert len(locations) == 3
    bursts = [re.search(r"limit_req zone=(\w+) burst=(\d+) nodelay;", body) for body in locations]
    assert all(bursts), locations
    assert sum(int(b.group(2)) for b in bursts if b and b.group(1) == "per_client_static") >= 100 * 160
    assert all(int(b.group(2)) >= 100 * 8 for b in bursts if b and b.group(1) == "per_client_requests")
    assert value(config, "limit_req_status") == value(config, "limit_conn_status") == "429"


def test_security_headers_on_every_response_and_no_version(tmp_path: Path) -> None:
    config = rendered(tmp_path)
    assert value(config, "server_tokens") == "off"
    server = config[config.index("server {") :]
    for header in (
        'add_header X-Content-Type-Options "nosniff" always;',
        "add_header Content-Security-Policy \"frame-ancestors 'self'\" always;",
        'add_header X-Frame-Options "SAMEORIGIN" always;',
        'add_header Referrer-Policy "no-referrer" always;',
    ):
        assert header in server
    # A location with an add_header of its own would drop all of the server's.
    assert not any("add_header" in body for body in re.findall(r"location [^{]+\{([^}]*)\}", config))


def test_header_buffers_hold_the_longest_accepted_link_in_any_script(tmp_path: Path) -> None:
    config = rendered(tmp_path)
    count, buffer = value(config, "large_client_header_buffers").split()
    # The request line (GET, the page's path, the encoded link, the protocol) must fit in one buffer.
    assert size(buffer) >= LIMITS.link_chars * ENCODED_BYTES_PER_CHARACTER + 1024
    assert int(count) >= 2  # the other headers (cookies) in the second
    assert seconds(value(config, "client_header_timeout")) <= 60


def test_websockets_end_after_an_hour_of_silence_not_a_day(tmp_path: Path) -> None:
    config = rendered(tmp_path)
    for name in ("proxy_read_timeout", "proxy_send_timeout"):
        # Streamlit pings every 30 s, so a live tab is never silent for minutes.
        assert 10 * 60 <= seconds(value(config, name)) <= 3600


def test_access_log_leaves_out_query_strings(tmp_path: Path) -> None:
    config = rendered(tmp_path)
    log_format = config[config.index("log_format private") : config.index(";", config.index("log_format private"))]
    assert "$request " not in log_format and "$request_uri" not in log_format and "$args" not in log_format
    assert "$http_referer" not in log_format
    assert re.search(r"access_log \S+/logs/access\.log private;", config)


def test_the_rendered_config_passes_nginx_t(tmp_path: Path) -> None:
    need_nginx()
    config = tmp_path / "nginx.conf"
    rendered(tmp_path)
    command = [find_nginx(), "-t", "-p", str(tmp_path), "-c", str(config), "-e", str(tmp_path / "logs" / "t.log")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "[warn]" not in result.stderr and "[emerg]" not in result.stderr, result.stderr


#: The only lines of the compose proxy's config that are not the template's, and the template's it leaves out.
COMPOSE_ONLY = {
    "error_log /var/log/nginx/error.log warn;",
    "access_log /var/log/nginx/access.log private;",
    "server app:8501 max_fails=1 fail_timeout=5s;",
    "listen 8501;",
}
TEMPLATE_ONLY = re.compile(r"^(pid|error_log|access_log|\w+_temp_path|server 127\.0\.0\.1:\d+|listen 127\.0\.0\.1:)")


def test_the_compose_proxy_config_is_the_template_with_the_images_paths(tmp_path: Path) -> None:
    template = directives(rendered(tmp_path))
    compose = directives((DEPLOY / "nginx-compose.conf").read_text())
    assert set(compose) - set(template) == COMPOSE_ONLY
    assert all(TEMPLATE_ONLY.match(line) for line in set(template) - set(compose)), set(template) - set(compose)
    assert [line for line in compose if line not in COMPOSE_ONLY] == [
        line for line in template if not TEMPLATE_ONLY.match(line)
    ]


def test_the_compose_proxy_config_passes_nginx_t(tmp_path: Path) -> None:
    need_nginx()
    (tmp_path / "logs").mkdir()
    text = (DEPLOY / "nginx-compose.conf").read_text()
    text = text.replace("server app:8501", "server 127.0.0.1:8501").replace("/var/log/nginx/", f"{tmp_path}/logs/")
    config = tmp_path / "compose.conf"
    config.write_text(text)
    command = [find_nginx(), "-t", "-p", str(tmp_path), "-c", str(config), "-e", str(tmp_path / "logs" / "t.log")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr


DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")


def test_the_image_runs_unprivileged_from_a_pinned_base_with_hashed_installs() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    bases = [line.split()[1] for line in instructions if line.startswith("FROM ")]
    assert bases and all(DIGEST.search(base) for base in bases), bases
    users = [line.split()[1] for line in instructions if line.startswith("USER ")]
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    assert instructions.index(f"USER {users[-1]}") > max(i for i, line in enumerate(instructions) if "RUN " in line)
    installs = [line for line in instructions if "pip install" in line]
    # From the index, only with hashes; the project itself built offline.
    assert all("--require-hashes" in line or "--no-index" in line for line in installs), installs
    assert any("--require-hashes" in line and "requirements-docker.txt" in line for line in installs)


def test_compose_listens_on_loopback_with_memory_limits_and_pinned_images() -> None:
    yaml = pytest.importorskip("yaml")
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    for name, service in services.items():
        for port in service.get("ports", []):
            host = port.rsplit(":", 2)[0]
            assert host in {"127.0.0.1", "${BLEU_BIND:-127.0.0.1}"}, f"{name} publishes {port}"
        assert service["deploy"]["resources"]["limits"]["memory"], name
        assert "build" in service or DIGEST.search(service["image"]), f"{name}: {service.get('image')}"


def pins(path: Path) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", path.read_text(), flags=re.MULTILINE)
    return {name.lower().replace("_", "-"): version for name, version in found}


def test_the_images_hashed_requirements_pin_what_requirements_txt_pins() -> None:
    locked_file = DEPLOY / "requirements-docker.txt"
    locked = pins(locked_file)
    assert pins(ROOT / "requirements.txt").items() <= locked.items()
    entries = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", locked_file.read_text())[1:]
    assert len(entries) == len(locked)
    assert all(re.search(r"--hash=sha256:[0-9a-f]{64}", entry) for entry in entries)
    # Nothing but hashed pins: no other index, no local folders, no editable installs.
    options = re.findall(r"^-\S*", locked_file.read_text(), flags=re.MULTILINE)
    assert options == [], options
