"""Game reviews: the analysis job and the job kinds this server runs."""
