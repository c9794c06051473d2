#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (docs/autograder.md):
# attnlab-cli's build dependencies from the distribution's packages, then attnlab-cli built from
# the repository the zip holds (source/attention-lab) and installed into /usr/local. python3-numpy
# runs a handed-in mha.py; add python3-torch for mha_torch.py.
set -euo pipefail
source_dir="${AUTOGRADER_ROOT:-/autograder}/source"

apt-get update
apt-get install -y \
  cmake g++ make pkg-config libeigen3-dev libopenblas-dev nlohmann-json3-dev libcli11-dev \
  zlib1g-dev python3 python3-numpy

cmake -S "$source_dir/attention-lab" -B "$source_dir/build" -DCMAKE_BUILD_TYPE=Release \
  -DATTNLAB_BUILD_GUI=OFF -DBUILD_TESTING=OFF
cmake --build "$source_dir/build" -j"$(nproc)" --target attnlab-cli
cmake --install "$source_dir/build" --prefix /usr/local
attnlab-cli --help > /dev/null
