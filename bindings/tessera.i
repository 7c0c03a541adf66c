// Placeholder: the SWIG interface (issue 5).
%module tessera
