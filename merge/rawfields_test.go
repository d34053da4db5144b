package merge
