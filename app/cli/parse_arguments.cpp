#include "app/cli/parse_arguments.hpp"

#include <iostream>

namespace attnlab::cli {

int parse_arguments(CLI::App& app, int argc, char** argv, const std::string& command) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << command << ": " << e.what() << " (see " << command << " --help)\n";
    return 2;
  }
  return -1;
}

}  // namespace attnlab::cli
