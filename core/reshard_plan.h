// Being written (issue 3).
#ifndef TESSERA_CORE_RESHARD_PLAN_H_
#define TESSERA_CORE_RESHARD_PLAN_H_
#endif  // TESSERA_CORE_RESHARD_PLAN_H_
