#ifndef CLIBYAML_SHIM_H
#define CLIBYAML_SHIM_H
// libyaml (Debian's libyaml-dev): the YAML 1.1 parser that Yams wraps, used without Yams' Swift
// layer, which imports all of Foundation and with it ICU's data (docs/benchmarks.md, binary size).
#include <yaml.h>
#endif
