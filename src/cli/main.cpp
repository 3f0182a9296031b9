#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "fen/normalize.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fenmill normalize FILE\n");
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::string line;
  fenmill::Position pos;
  char buf[fenmill::kMaxFenLength];
  for (long n = 1; std::getline(in, line); ++n) {
    auto r = fenmill::normalize_fen(line, pos);
    if (r.ok()) {
      std::size_t len = fenmill::write_fen(pos, buf);
      buf[len++] = '\n';
      std::fwrite(buf, 1, len, stdout);
    } else {
      std::fprintf(stderr, "%s:%ld:%u: %s\n", argv[2], n, r.column, std::string(fenmill::error_name(r.code)).c_str());
    }
  }
}
