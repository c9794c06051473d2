// Where each of the ten mistakes does its harm, worked out by hand from what each bug changes:
// the record the core compares (MistakeReport::record) and the Mistakes tab draws. One table for
// the core's test and the GUI's.
#pragma once

#include <iterator>

#include "core/model/config.hpp"

namespace attnlab::test_data {

struct Landing {
  Mistake mistake;
  const char* record;
};

inline constexpr Landing kMistakeLandings[] = {
    {Mistake::ForgetTranspose, "scores"},   {Mistake::ConcatNoTranspose, "concat"},
    {Mistake::ViewNoContiguous, "concat"},  {Mistake::ScaleDModel, "weights"},
    {Mistake::NoScale, "weights"},          {Mistake::SoftmaxWrongAxis, "weights"},
    {Mistake::MaskAfterSoftmax, "weights"}, {Mistake::MaskZero, "weights"},
    {Mistake::DropoutOnOutput, "context"},  {Mistake::SharedQkProjection, "scaled"},
};

}  // namespace attnlab::test_data
