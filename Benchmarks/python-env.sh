# Sourced by Benchmarks/peers/run_peers.sh and Benchmarks/scaling.sh, from the repository's
# root folder: `python_env SCRIPT FOLDER` creates FOLDER/.venv the first time (with
# Python 3.11 or later: $PYTHON, default python3), installs FOLDER/requirements.txt
# (pinned) into it on every run, as Notebooks/run.sh does for the notebooks, and sets `py`
# to the absolute path of its python. SCRIPT names the caller in the error message.
python_env() {
  local script="$1" folder="$2" python="${PYTHON:-python3}"
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "$script needs Python 3.11 or later; $python is $("$python" --version 2>&1) (set PYTHON=...)" >&2; exit 1; }
  if [ ! -x "$folder/.venv/bin/python" ]; then
    echo "== creating $folder/.venv"
    "$python" -m venv "$folder/.venv"
  fi
  "$folder/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$folder/requirements.txt"
  py="$PWD/$folder/.venv/bin/python"
}
