# handwritten_tree: the unique_ptr tree by hand (preorder, a new per node), the floor under
# every library's tree decode (no library needed).
bench_adapter(handwritten_tree SOURCES adapters/handwritten_tree.cpp)
