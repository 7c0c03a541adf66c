/*
 * Being written (issue 3).
 */
#ifndef TESSERA_JAX_H_
#define TESSERA_JAX_H_

#include "tessera/export.h"

TESSERA_BEGIN_DECLS

TESSERA_END_DECLS

#endif /* TESSERA_JAX_H_ */
