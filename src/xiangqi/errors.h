// Xiangqi wording for the error codes Xiangqi shares with chess (RANK_COUNT says "10 ranks" here, not 8).
// (Not called error_message: argument-dependent lookup would make calls ambiguous with fenmill::error_message.)
// Names are the shared ones; for codes with nothing Xiangqi-specific to say this is fenmill::error_message.
#pragma once
#include <string_view>

#include "fen/errors.h"

namespace fenmill::xiangqi {

std::string_view message_for(ErrorCode code);

}  // namespace fenmill::xiangqi
