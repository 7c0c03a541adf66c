/*
 * Being written (issue 3).
 */
#ifndef TESSERA_XLA_H_
#define TESSERA_XLA_H_

#include "tessera/export.h"

TESSERA_BEGIN_DECLS

TESSERA_END_DECLS

#endif /* TESSERA_XLA_H_ */
