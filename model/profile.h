/* Internal view of a profile (model/profile.c owns it). */
#ifndef GJ_MODEL_PROFILE_H
#define GJ_MODEL_PROFILE_H

#include "gjadvise.h"

#define GJ_MAX_PARAMS 64

struct gj_profile {
    char name[64];
    gj_hw hw;
    double spread[GJ_MAX_PARAMS];
    gj_source src[GJ_MAX_PARAMS];
    gj_device dev;
    char origin[16];
    char created[32];
    char notes[256];
    int version;
    double fit_error;
    gj_fit fit[GJ_IMPL_COUNT];   /* learned corrections, set = 0: none */
};

/* Pointer to the field of parameter i inside hw. */
double *gj_param_ptr(gj_hw *hw, int i);
/* 1 if name is a valid profile name. */
int gj_profile_name_ok(const char *name);

#endif
