/* All of libpascal's public API (docs/library.md): link libpascal.  A
 * program that needs only the model includes pascal/model.h and links
 * libpascal_model, which depends on no other library. */
#ifndef PASCAL_PASCAL_H
#define PASCAL_PASCAL_H

#include "pascal/version.h"
#include "pascal/error.h"
#include "pascal/model.h"
#include "pascal/spec.h"
#include "pascal/run.h"
#include "pascal/calibrate.h"
#include "pascal/sink.h"

#endif
